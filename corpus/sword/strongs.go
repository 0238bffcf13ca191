package sword

import (
	"fmt"
	"html"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/selahdev/selah/corpus"
)

// StrongsEntry is one word of Strong's Hebrew or Greek dictionary, as the
// StrongsHebrew and StrongsGreek modules (Debian's sword-dict-strongs-*)
// hold it; corpus.Lemma is its one definition.
type StrongsEntry = corpus.Lemma

// Strongs is Strong's dictionary, Hebrew and Greek, parsed whole (14,298
// entries, a few MB).
type Strongs struct {
	entries map[string]StrongsEntry
	order   []string // Hebrew then Greek, by number
}

// The modules' names in the SWORD library.
const (
	StrongsGreekModule  = "StrongsGreek"
	StrongsHebrewModule = "StrongsHebrew"
)

// OpenStrongs reads both of Strong's dictionaries from the SWORD library
// at dir and parses every entry.
func OpenStrongs(dir string) (*Strongs, error) {
	s := &Strongs{entries: map[string]StrongsEntry{}}
	for _, m := range []struct {
		name   string
		prefix string
	}{{StrongsHebrewModule, "H"}, {StrongsGreekModule, "G"}} {
		lex, err := OpenLexicon(dir, m.name)
		if err != nil {
			return nil, err
		}
		err = lex.Each(func(key, raw string) error {
			n, err := strconv.Atoi(strings.TrimSpace(key))
			if err != nil || n <= 0 {
				return fmt.Errorf("sword: %s key %q is not a number", m.name, key)
			}
			num := m.prefix + strconv.Itoa(n)
			if _, dup := s.entries[num]; dup {
				// The Hebrew index holds a few keys twice (H2200), each
				// record the same entry; SWORD's tools show the first.
				return nil
			}
			e := ParseStrongs(raw, m.prefix == "H")
			e.Number = num
			s.entries[num] = e
			s.order = append(s.order, num)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Lookup returns the entry of a Strong's number, written as the modules'
// lemma attributes ("G0025", "strong:G0025") or plainly ("G25", "h157").
// An unknown or malformed number is an error wrapping fs.ErrNotExist.
func (s *Strongs) Lookup(number string) (StrongsEntry, error) {
	num, ok := NormalizeStrongs(number)
	if ok {
		if e, found := s.entries[num]; found {
			return e, nil
		}
	}
	return StrongsEntry{}, fmt.Errorf("sword: no Strong's entry %q: %w", number, fs.ErrNotExist)
}

// Each calls fn with every entry, Hebrew then Greek, in number order. An
// error from fn stops the walk and is returned.
func (s *Strongs) Each(fn func(StrongsEntry) error) error {
	for _, n := range s.order {
		if err := fn(s.entries[n]); err != nil {
			return err
		}
	}
	return nil
}

// Len is the number of entries.
func (s *Strongs) Len() int { return len(s.order) }

// NormalizeStrongs writes a Strong's number as "G25": upper-case
// testament letter, no leading zeros, no "strong:" prefix. A suffix letter
// some tagging schemes add ("H1254a") is dropped. ok is false for anything
// that is not a G or H number.
func NormalizeStrongs(s string) (string, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "strong:"), "Strong:")
	if len(s) < 2 {
		return "", false
	}
	p := strings.ToUpper(s[:1])
	if p != "G" && p != "H" {
		return "", false
	}
	digits := s[1:]
	end := 0
	for end < len(digits) && digits[end] >= '0' && digits[end] <= '9' {
		end++
	}
	if end == 0 || end < len(digits)-1 {
		return "", false
	}
	n, err := strconv.Atoi(digits[:end])
	if err != nil || n <= 0 {
		return "", false
	}
	return p + strconv.Itoa(n), true
}

var (
	defElem = regexp.MustCompile(`(?s)<def>(.*?)</def>`)
	// orthElem is one <orth> of an entry: the word in its script (no
	// type), its Beta-code writing (type="writing") or its
	// transliteration (type="trans"); pronElem the pronunciation.
	orthElem = regexp.MustCompile(`(?s)<orth\b([^>]*)>(.*?)</orth>`)
	pronElem = regexp.MustCompile(`(?s)<pron\b[^>]*>(.*?)</pron>`)
	origElem = regexp.MustCompile(`(?s)<orig>.*?</orig>`)
	refElem  = regexp.MustCompile(`(?s)<ref\b[^>]*>.*?</ref>`)
	// refTarget is a cross-reference's target: `target="StrongsGreek:25"`.
	refTarget = regexp.MustCompile(`target="Strongs(G|H)\w*:0*([0-9]+)"`)
	// refNumber is a cross-reference as ParseStrongs marks it.
	refNumber = regexp.MustCompile(refMark + `[GH]?[0-9]*` + refMark)
	// greekEtymology is how the Greek module's etymology runs on past
	// <orig>: a leading clause that cites a number after "and", "or",
	// "from" or "compare" ("and G1160;").
	sixComma       = regexp.MustCompile(`(\pL) 6 (\pL)`)
	greekEtymology = regexp.MustCompile(`^\s*(?i:and|or|from|compare|comp\.)\b`)
	anyTag         = regexp.MustCompile(`<[^>]*>`)
	// renderingsMark separates the meaning from the KJV renderings:
	// ":--" in the Greek module, ": -" in the Hebrew one.
	renderingsMark = regexp.MustCompile(`:\s*--?\s*`)
	compare        = regexp.MustCompile(`(?i)\bcompare\b.*$`)
	// etymology recognises the Hebrew module's leading clauses that say
	// where a word comes from rather than what it means: one that cites
	// another number ("From H1961;", "Feminine of H3499;") or names a
	// root or origin ("A primitive root;", "(Chaldee);"). The Greek
	// module marks the same with <orig> instead.
	etymology = regexp.MustCompile(`(?i)\b(primitive|primary|root|origin|derivation|derivative|chaldee|corresponding to)\b`)
)

// refMark stands for a removed cross-reference while clauses are judged.
const refMark = "\u00a7"

// ParseStrongs reads one raw dictionary entry (TEI markup) of the module
// named by hebrew into its gloss and renderings; Number is left empty.
func ParseStrongs(raw string, hebrew bool) StrongsEntry {
	m := defElem.FindStringSubmatch(raw)
	if m == nil {
		return StrongsEntry{}
	}
	var related []string
	for _, t := range refTarget.FindAllStringSubmatch(m[1], -1) {
		if n, ok := NormalizeStrongs(t[1] + t[2]); ok && !slices.Contains(related, n) {
			related = append(related, n)
		}
	}
	def := origElem.ReplaceAllString(m[1], " ")
	// A cross-reference becomes refMark, its number and refMark again: the
	// gloss drops all three, the definition keeps the number.
	def = refElem.ReplaceAllStringFunc(def, func(r string) string {
		if t := refTarget.FindStringSubmatch(r); t != nil {
			if n, ok := NormalizeStrongs(t[1] + t[2]); ok {
				return " " + refMark + n + refMark + " "
			}
		}
		return " " + refMark + refMark + " "
	})
	def = anyTag.ReplaceAllString(def, " ")
	def = html.UnescapeString(def)
	// The Hebrew module writes the commas of Strong's lists as braces
	// around the item before them: "{beginning} chief ({-est})" is
	// "beginning, chief(-est)".
	def = strings.NewReplacer("{", "", "}", ",").Replace(def)
	def = collapse(def)

	meaning, rend := def, ""
	if loc := renderingsMark.FindStringIndex(def); loc != nil {
		meaning, rend = def[:loc[0]], def[loc[1]:]
	}
	if hebrew {
		// Drop the leading etymological clauses, each ending in ";" outside
		// parentheses.
		for {
			head, rest, ok := cutClause(meaning)
			if !etymology.MatchString(head) && (!ok || !strings.Contains(head, refMark)) {
				// A last clause is dropped only when it names an
				// origin: one that cites a number may be the meaning
				// ("a son ... (like H1, H251)").
				break
			}
			meaning = rest
			if !ok {
				break // the whole meaning was etymology: "(Chaldee); corresponding to H702"
			}
		}
	}
	tidy := func(s string) string {
		s = strings.NewReplacer(" ,", ",", " ;", ";").Replace(s)
		s = strings.ReplaceAll(s, "( ", "(")
		s = strings.ReplaceAll(s, " )", ")")
		return collapse(s)
	}
	clean := func(s string) string { return tidy(refNumber.ReplaceAllString(s, "")) }
	e := StrongsEntry{Gloss: strings.Trim(clean(meaning), " ;,."), Related: related}
	// The definition keeps the numbers the meaning cites ("much like G1")
	// and, in the Greek module, also drops the etymology that runs on past
	// <orig> ("and G1160; costless"). The gloss keeps its older form: the
	// committed word vectors (pipeline/wordvec) were trained on it, and the
	// lexical index's gloss field was measured with it.
	def2 := meaning
	for !hebrew {
		head, rest, ok := cutClause(def2)
		if !ok || !strings.Contains(head, refMark) || !greekEtymology.MatchString(head) {
			break
		}
		def2 = rest
	}
	def2 = strings.ReplaceAll(def2, refMark, "")
	// The Hebrew module has a "6" for a comma at some lines' ends ("happy
	// 6 friendly"), and leaves a comma before a closing parenthesis
	// ("(of music,)").
	def2 = sixComma.ReplaceAllString(def2, "$1, $2")
	def2 = strings.ReplaceAll(tidy(def2), ",)", ")")
	e.Definition = strings.Trim(def2, " ;,.")
	for _, o := range orthElem.FindAllStringSubmatch(raw, -1) {
		text := headword(o[2], hebrew)
		switch {
		case strings.Contains(o[1], `type="trans"`) && e.Transliteration == "":
			// The first; a later one is a word of the etymology (G25's
			// "ágan").
			e.Transliteration = text
		case !strings.Contains(o[1], "type=") && e.Lemma == "":
			e.Lemma = text
		}
	}
	if m := pronElem.FindStringSubmatch(raw); m != nil {
		e.Pronunciation = headword(m[1], hebrew)
	}
	if hebrew && !readableHebrew(e.Lemma) {
		e.Lemma = ""
	}
	rend = compare.ReplaceAllString(rend, "")
	for _, r := range splitTop(clean(rend), ',', -1) {
		if r = strings.Trim(r, " ;.,"); r != "" {
			e.Renderings = append(e.Renderings, r)
		}
	}
	return e
}

// headword cleans an <orth> or <pron> of an entry: markup out, and the
// Hebrew module's text, which is UTF-8 read as Windows-1252 and written
// as UTF-8 again ("shÃ¢lÃ´m"), mended ("shâlôm"). Strong writes some
// forms twice ("shâlôm  shâlôm", "{shaw-lome'} shaw-lome'"): the first
// is kept.
func headword(s string, hebrew bool) string {
	s = html.UnescapeString(anyTag.ReplaceAllString(s, ""))
	if hebrew {
		s = demojibake(s)
	}
	s = strings.NewReplacer("{", "", "}", "").Replace(s)
	// The forms are two or more spaces apart; a word of two ("maràn
	// athá") one.
	s, _, _ = strings.Cut(strings.TrimSpace(s), "  ")
	if f := strings.Fields(s); len(f)%2 == 0 && slices.Equal(f[:len(f)/2], f[len(f)/2:]) {
		s = strings.Join(f[:len(f)/2], " ")
	}
	return strings.Join(strings.Fields(s), " ")
}

// demojibake undoes one round of UTF-8 read as Windows-1252: s's runes
// are taken back to the bytes they were read from, and the bytes read as
// UTF-8. A string that does not come back whole is returned as it is.
func demojibake(s string) string {
	b, err := charmap.Windows1252.NewEncoder().Bytes([]byte(s))
	if err != nil || !utf8.Valid(b) {
		return s
	}
	return string(b)
}

// readableHebrew reports whether s is written in Hebrew letters: the
// module's script did not always survive its encoding, and a lemma of
// stray Latin and control characters is worse than none.
func readableHebrew(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 0x0590 && r <= 0x05FF) && r != ' ' {
			return false
		}
	}
	return true
}

// cutClause cuts s at its first ";" outside parentheses.
func cutClause(s string) (head, rest string, ok bool) {
	parts := splitTop(s, ';', 2)
	if len(parts) == 1 {
		return s, "", false
	}
	return parts[0], parts[1], true
}

// splitTop splits s at sep outside parentheses into at most n parts (n <
// 0: all), as strings.SplitN does, so that the renderings list
// "first(-fruits, part, time)" stays one rendering.
func splitTop(s string, sep rune, n int) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		if len(out) == n-1 {
			break
		}
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case sep:
			if depth <= 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
