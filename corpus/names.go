package corpus

import (
	"fmt"
	"strings"
)

// bookAliases lists, per OSIS id, the names people write for a book besides
// its OSIS id and canonical name (both of which are always accepted). Numbered
// books are listed with an arabic digit only: LookupBook maps "I", "1st" and
// "First" onto the digit, so the table need not repeat every spelling.
//
// Abbreviations shared by two books ("Ez", "Jo", "Ph") are left out on
// purpose: guessing would send a reader to the wrong passage, which is worse
// than asking them to be more specific.
var bookAliases = map[string][]string{
	"Gen":    {"Ge", "Gn"},
	"Exod":   {"Ex", "Exo", "Exd"},
	"Lev":    {"Le", "Lv"},
	"Num":    {"Nu", "Nm", "Nb"},
	"Deut":   {"De", "Dt", "Deu"},
	"Josh":   {"Jos", "Jsh"},
	"Judg":   {"Jdg", "Jg", "Jdgs"},
	"Ruth":   {"Rut", "Ru", "Rth"},
	"1Sam":   {"1 Sam", "1 Sa", "1 Sm"},
	"2Sam":   {"2 Sam", "2 Sa", "2 Sm"},
	"1Kgs":   {"1 Kgs", "1 Ki", "1 Kin", "1 Kg"},
	"2Kgs":   {"2 Kgs", "2 Ki", "2 Kin", "2 Kg"},
	"1Chr":   {"1 Chr", "1 Chron", "1 Ch", "1 Chro", "1 Paralipomenon"},
	"2Chr":   {"2 Chr", "2 Chron", "2 Ch", "2 Chro", "2 Paralipomenon"},
	"Ezra":   {"Ezr"},
	"Neh":    {"Ne"},
	"Esth":   {"Est", "Es"},
	"Job":    {"Jb"},
	"Ps":     {"Psa", "Psalm", "Pss", "Psm", "Pslm", "Psalter"},
	"Prov":   {"Pr", "Prv", "Pro", "Prvb"},
	"Eccl":   {"Ec", "Ecc", "Eccles", "Eccle", "Qoh", "Qoheleth"},
	"Song":   {"SoS", "Song of Songs", "Song of Sol", "Canticles", "Canticle of Canticles", "Cant", "Canticle"},
	"Isa":    {"Is"},
	"Jer":    {"Je", "Jr"},
	"Lam":    {"La"},
	"Ezek":   {"Eze", "Ezk"},
	"Dan":    {"Da", "Dn"},
	"Hos":    {"Ho"},
	"Joel":   {"Joe", "Jl"},
	"Amos":   {"Am", "Amo"},
	"Obad":   {"Ob", "Oba"},
	"Jonah":  {"Jon", "Jnh"},
	"Mic":    {"Mi", "Mc"},
	"Nah":    {"Na"},
	"Hab":    {"Hb"},
	"Zeph":   {"Zep", "Zp"},
	"Hag":    {"Hg"},
	"Zech":   {"Zec", "Zc"},
	"Mal":    {"Ml"},
	"Matt":   {"Mt", "Mat"},
	"Mark":   {"Mk", "Mrk", "Mar", "Mr"},
	"Luke":   {"Lk", "Luk", "Lu"},
	"John":   {"Jn", "Jhn", "Joh"},
	"Acts":   {"Ac", "Act", "Acts of the Apostles"},
	"Rom":    {"Ro", "Rm"},
	"1Cor":   {"1 Co", "1 Cor"},
	"2Cor":   {"2 Co", "2 Cor"},
	"Gal":    {"Ga"},
	"Eph":    {"Ep", "Ephes"},
	"Phil":   {"Php", "Pp", "Philip"},
	"Col":    {"Colo"},
	"1Thess": {"1 Th", "1 Thes", "1 Thess"},
	"2Thess": {"2 Th", "2 Thes", "2 Thess"},
	"1Tim":   {"1 Ti", "1 Tm"},
	"2Tim":   {"2 Ti", "2 Tm"},
	"Titus":  {"Tit", "Ti"},
	"Phlm":   {"Phm", "Philem", "Phile"},
	"Heb":    {"He"},
	"Jas":    {"Jm", "Jam", "Jms"},
	"1Pet":   {"1 Pe", "1 Pt", "1 Pet"},
	"2Pet":   {"2 Pe", "2 Pt", "2 Pet"},
	"1John":  {"1 Jn", "1 Jhn", "1 Jo", "1 Joh"},
	"2John":  {"2 Jn", "2 Jhn", "2 Jo", "2 Joh"},
	"3John":  {"3 Jn", "3 Jhn", "3 Jo", "3 Joh"},
	"Jude":   {"Jud", "Jd"},
	"Rev":    {"Re", "Rv", "Revelations", "Revelation of John", "Revelation of St John", "Apocalypse", "Apoc"},
}

// ordinals maps the ways a numbered book's number is written to its digit.
var ordinals = map[string]string{
	"1": "1", "1st": "1", "i": "1", "first": "1",
	"2": "2", "2nd": "2", "ii": "2", "second": "2",
	"3": "3", "3rd": "3", "iii": "3", "third": "3",
}

// gluedOrdinals are the ordinal spellings tried when the number is written
// against the name ("IIKings", "1stJohn"). Longer spellings come first so
// "iii" is not read as "i" followed by "ii".
var gluedOrdinals = []string{"first", "second", "third", "1st", "2nd", "3rd", "iii", "ii", "i"}

// bookKeys maps a normalized name (see normalizeBookName) to a book index.
var bookKeys = map[string]int{}

func init() {
	add := func(name string, i int) {
		key := normalizeBookName(name)
		if j, ok := bookKeys[key]; ok && j != i {
			// The tables are static: a clash is a bug in this file, and
			// resolving it silently would send readers to the wrong book.
			panic(fmt.Sprintf("corpus: book name %q names both %s and %s", name, books[j].OSIS, books[i].OSIS))
		}
		bookKeys[key] = i
	}
	for i, b := range books {
		add(b.OSIS, i)
		add(b.Name, i)
		fullNames[normalizeBookName(b.Name)] = true
	}
	for osis, names := range bookAliases {
		i, ok := byOSIS[osis]
		if !ok {
			panic(fmt.Sprintf("corpus: aliases for unknown OSIS id %q", osis))
		}
		for _, n := range names {
			add(n, i)
		}
	}
}

// LookupBook finds a book by its full name, an abbreviation or its OSIS id.
// The match ignores case, dots and spaces, and accepts a numbered book's
// number as 1, 1st, I or First (likewise for 2 and 3), with or without a
// space before the name: "1 John", "1John", "1st Jn.", "I John", "First
// John" and "ijn" all name 1 John.
func LookupBook(name string) (Book, bool) {
	key := normalizeBookName(name)
	if key == "" {
		return Book{}, false
	}
	if i, ok := bookKeys[key]; ok {
		return books[i], true
	}
	// The number may be glued to the name. The exact key was tried first so
	// that "Isa" stays Isaiah rather than becoming "1 Sa".
	for _, p := range gluedOrdinals {
		if rest, ok := strings.CutPrefix(key, p); ok && rest != "" {
			if i, ok := bookKeys[ordinals[p]+rest]; ok {
				return books[i], true
			}
		}
	}
	return Book{}, false
}

// normalizeBookName lower-cases name and drops spaces and dots. When the
// first word is an ordinal set apart from the rest ("I Sam", "First John",
// "2nd. Kings") it becomes a digit; doing so only for a separate word keeps
// "Isa" (Isaiah) apart from "I Sa" (1 Samuel).
func normalizeBookName(name string) string {
	fields := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return r == '.' || r == ' ' || r == '\t' || r == '\u00a0'
	})
	if len(fields) > 1 {
		if d, ok := ordinals[fields[0]]; ok {
			fields[0] = d
		}
	}
	return strings.Join(fields, "")
}
