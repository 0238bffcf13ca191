package corpus

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/selahdev/selah"
)

// Mention is a reference found in free text by FindReferences.
type Mention struct {
	// Start and End are byte offsets of the reference in the text, End
	// exclusive.
	Start, End int
	// Text is the reference as written.
	Text string
	// Book is the book named, also when Err is set.
	Book Book
	// Reference is the reference read, when Err is nil.
	Reference Reference
	// Err says why a reference-shaped mention is not a KJV passage (a
	// *selah.Error: EPASSAGENOTFOUND for "John 3:99", EINVALIDREF for a
	// range that runs backwards).
	Err error
}

// maxNameWords is the most words a book name spans ("Revelation of St
// John", "Acts of the Apostles", with an ordinal before "1 Paralipomenon").
const maxNameWords = 5

// proseWords are book names and abbreviations that are also everyday
// English words. Written in lower case ("is 3:1", "acts 2:4" in a chat
// message may still be meant, but "the score is 3:1" is not), they are
// not read as books; capitalized ("Acts 2:4", "Is 53:5") they are.
var proseWords = map[string]bool{
	"is": true, "am": true, "he": true, "job": true, "acts": true, "act": true, "mark": true, "mar": true,
	"numbers": true, "song": true, "judges": true, "ex": true, "col": true, "lam": true, "joe": true,
	"jon": true, "mat": true, "jam": true, "tit": true, "pro": true, "dan": true, "ruth": true,
	"es": true, "de": true, "le": true, "ge": true, "la": true, "re": true, "ho": true, "mi": true,
	"na": true, "ne": true, "ro": true, "da": true, "ac": true, "pr": true, "ob": true, "hag": true,
	"pp": true,
}

// FindReferences returns every Bible reference in text, in order: a book
// name or abbreviation (any LookupBook accepts, with "1", "1st", "I" or
// "First" for numbered books, and spaces, non-breaking spaces or none
// between), then a chapter, optionally ":verse", optionally a range with a
// hyphen, en dash or em dash ("Jn 3:16–18", "1 Cor 13:4-7", "Ps 23",
// "Genesis 1:31-2:3"). A chapter and verse after "; " or ", " continue
// the same book ("Rom 8:28; 12:1"). A book written in lower case counts
// only with chapter and verse, and not when it is also an English word.
//
// Mentions that name a real book but no passage of the KJV ("John 3:99",
// "Jude 5-2") are returned with Err set. text should be valid UTF-8;
// invalid bytes are skipped like punctuation.
func FindReferences(text string) []Mention {
	return findMentions(text, acceptName)
}

// FindPassages returns the passages a question names, for answering it
// ("What does John 3:16 mean?", "what is psalm 23 about"): the mentions of
// FindReferences that are KJV passages, read by another rule for a
// chapter alone. A question is prose, where "Is 5 or 6 beers every night
// a problem?" names no Isaiah 5: a chapter alone counts only when the
// book is written by its full name (or "Psalm", or "Revelations"), and
// then in lower case too unless the name is also an English word ("what
// is psalm 91 about", not "my job 3 years ago"). With chapter and verse
// the rule is FindReferences'. Mentions that name no KJV passage are left
// out.
func FindPassages(text string) []Mention {
	return slices.DeleteFunc(findMentions(text, acceptPassage), func(m Mention) bool { return m.Err != nil })
}

// fullNames are the normalized full names of the books (normalizeBookName;
// names.go adds them beside bookKeys), and the two others people write in
// full: the singular "Psalm" and the plural "Revelations".
var fullNames = map[string]bool{"psalm": true, "revelations": true}

// acceptPassage applies FindPassages' rule.
func acceptPassage(name, loc string) bool {
	if strings.ContainsAny(loc, ":.") {
		return acceptName(name, loc)
	}
	key := normalizeBookName(name)
	if !fullNames[key] {
		return false
	}
	r, _ := utf8.DecodeRuneInString(name)
	return !unicode.IsLower(r) || !proseWords[key]
}

// findMentions is FindReferences with accept deciding whether a book name
// and the locator after it are a reference.
func findMentions(text string, accept func(name, loc string) bool) []Mention {
	var out []Mention
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) || (i > 0 && isWordRune(lastRune(text[:i]))) {
			i += size
			continue
		}
		m, ok := mentionAt(text, i, accept)
		if !ok {
			i = skipWord(text, i)
			continue
		}
		out = append(out, m)
		i = m.End
		// "Rom 8:28; 12:1": more chapters and verses of the same book.
		for {
			next, ok := continuation(text, i, m)
			if !ok {
				break
			}
			out = append(out, next)
			m, i = next, next.End
		}
	}
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

func skipWord(text string, i int) int {
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) {
			break
		}
		i += size
	}
	return max(i, 1)
}

// isNameSpace is what may stand between the words of a book name and
// between the name and the chapter: spaces of any kind, but not a line
// break, which ends a reference.
func isNameSpace(r rune) bool {
	return r != '\n' && r != '\r' && (unicode.IsSpace(r) || r == '\u00a0' || r == '\u202f')
}

// mentionAt reads a reference starting at byte i, a word start.
func mentionAt(text string, i int, accept func(name, loc string) bool) (Mention, bool) {
	// The ends of up to maxNameWords words, each a run of letters, or, for
	// the first only, the digits of an ordinal.
	var ends []int
	j := i
	for w := 0; w < maxNameWords && j < len(text); w++ {
		r, _ := utf8.DecodeRuneInString(text[j:])
		k := j
		switch {
		case unicode.IsLetter(r):
			for k < len(text) {
				r, size := utf8.DecodeRuneInString(text[k:])
				if !unicode.IsLetter(r) {
					break
				}
				k += size
			}
		case w == 0 && r >= '1' && r <= '3':
			k = j + 1
		default:
		}
		if k == j {
			break
		}
		ends = append(ends, k)
		// Separators before the next word: spaces and at most one dot.
		j = skipSeparators(text, k)
	}
	for n := len(ends); n > 0; n-- {
		name := text[i:ends[n-1]]
		if n == 1 && !strings.ContainsFunc(name, unicode.IsLetter) {
			continue
		}
		b, ok := LookupBook(name)
		if !ok {
			continue
		}
		loc, _, end := locatorAfter(text, ends[n-1])
		if loc == "" {
			continue
		}
		if !accept(name, loc) {
			return Mention{}, false
		}
		m := Mention{Start: i, End: end, Text: text[i:end], Book: b}
		ref, err := ParseReference(b.Name + " " + loc)
		if err != nil {
			if selah.ErrorCode(err) != selah.EPASSAGENOTFOUND && selah.ErrorCode(err) != selah.EINVALIDREF {
				return Mention{}, false
			}
			m.Err = err
		} else {
			m.Reference = ref
		}
		return m, true
	}
	return Mention{}, false
}

// acceptName applies the lower-case rule of FindReferences.
func acceptName(name, loc string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	if !unicode.IsLower(r) {
		return true
	}
	key := normalizeBookName(name)
	return strings.ContainsAny(loc, ":.") && len(key) >= 2 && !proseWords[key]
}

// skipSeparators returns where the text after byte i goes on past an
// optional dot and the spaces after it.
func skipSeparators(text string, i int) int {
	if i < len(text) && text[i] == '.' {
		i++
	}
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isNameSpace(r) {
			break
		}
		i += size
	}
	return i
}

// locatorAfter reads the chapter-and-verse part after a book name ending
// at byte i: optional dot and spaces, then C, C:V, C-C, C:V-V or C:V-C:V
// (the range mark a hyphen or dash, optionally spaced). It returns the
// locator as written without surrounding space, and where it starts and
// ends. A trailing dot is a full stop, not part of the locator.
func locatorAfter(text string, i int) (loc string, start, end int) {
	j := skipSeparators(text, i)
	start = j
	k, ok := chapterVerse(text, j)
	if !ok {
		return "", 0, 0
	}
	end = k
	// A range: dash, spaces allowed around it, then another C or C:V.
	d := k
	for d < len(text) && text[d] == ' ' {
		d++
	}
	if d < len(text) {
		if r, size := utf8.DecodeRuneInString(text[d:]); isDash(r) {
			d += size
			for d < len(text) && text[d] == ' ' {
				d++
			}
			if k2, ok := chapterVerse(text, d); ok {
				end = k2
			}
		}
	}
	// Not a reference when the number runs on into a word ("Ps 23rd").
	if end < len(text) {
		if r, _ := utf8.DecodeRuneInString(text[end:]); unicode.IsLetter(r) {
			return "", 0, 0
		}
	}
	return text[start:end], start, end
}

// chapterVerse reads digits, optionally followed by ':' or '.' and digits,
// at byte j. It returns the end.
func chapterVerse(text string, j int) (int, bool) {
	k := digitsAt(text, j)
	if k == j {
		return j, false
	}
	if k+1 < len(text) && (text[k] == ':' || text[k] == '.') {
		if k2 := digitsAt(text, k+1); k2 > k+1 {
			k = k2
		}
	}
	return k, true
}

// digitsAt returns the end of the run of at most three ASCII digits at j
// (no chapter or verse has more), or j when there is none or it is longer.
func digitsAt(text string, j int) int {
	k := j
	for k < len(text) && text[k] >= '0' && text[k] <= '9' {
		k++
	}
	if k-j > 3 {
		return j
	}
	return k
}

// continuation reads "; C:V" or ", C:V" (with an optional range) after a
// mention, as another reference in the same book.
func continuation(text string, i int, prev Mention) (Mention, bool) {
	j := i
	for j < len(text) && text[j] == ' ' {
		j++
	}
	if j >= len(text) || (text[j] != ';' && text[j] != ',') {
		return Mention{}, false
	}
	j++
	for j < len(text) && text[j] == ' ' {
		j++
	}
	k := digitsAt(text, j)
	if k == j || k >= len(text) || text[k] != ':' {
		return Mention{}, false
	}
	loc, start, end := locatorAfter(text, j)
	if loc == "" || start != j {
		return Mention{}, false
	}
	book := prev.Book
	m := Mention{Start: start, End: end, Text: text[start:end], Book: book}
	ref, err := ParseReference(book.Name + " " + loc)
	if err != nil {
		m.Err = err
	} else {
		m.Reference = ref
	}
	return m, true
}
