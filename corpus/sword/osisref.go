package sword

import (
	"html"
	"iter"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/selahdev/selah/corpus"
)

// osisRefAttr finds the links to Scripture in markup: "Ps.34.1-Ps.34.8",
// "Rom.2".
var osisRefAttr = regexp.MustCompile(`\bosisRef\s*=\s*(?:"([^"]*)"|'([^']*)')`)

// ScriptureRefs returns the verses an entry's markup links to with
// osisRef attributes (Nave writes <ref osisRef="Ps.34.1-Ps.34.8">), with
// ranges and whole chapters expanded, in canonical order and each once.
// skipped lists the references that name no KJV verse: books outside the
// 66 (Nave cites the Wisdom of Solomon and the Prayer of Azariah a few
// times), verses the KJV does not have, and malformed or backward
// ranges; callers decide whether to report them.
//
// Nave links the single-chapter books wrongly: "Jude 1:21" is written
// <ref osisRef="Jude.1.1">Jude 1</ref>:21, the link naming verse 1 and
// the real verses following it as text. Where such a text follows a link
// to verse 1 of a single-chapter book, the verses it lists are taken
// instead.
func ScriptureRefs(raw string) (ids []corpus.VerseID, skipped []string) {
	seen := map[corpus.VerseID]bool{}
	for _, m := range osisRefAttr.FindAllStringSubmatchIndex(raw, -1) {
		var val string
		if m[2] >= 0 {
			val = raw[m[2]:m[3]]
		} else {
			val = raw[m[4]:m[5]] // single-quoted
		}
		refs := strings.Fields(html.UnescapeString(val))
		if len(refs) == 1 {
			if fixed, ok := trailingVerses(refs[0], raw[m[1]:]); ok {
				refs = fixed
			}
		}
		// An osisRef may hold several references separated by spaces.
		for _, ref := range refs {
			first, last, ok := parseOSISRange(ref)
			if !ok {
				skipped = append(skipped, ref)
				continue
			}
			for id := range verseRange(first, last) {
				if !seen[id] {
					seen[id] = true
					ids = append(ids, id)
				}
			}
		}
	}
	slices.Sort(ids)
	return ids, skipped
}

// verseList matches the verses Nave leaves after the link of a
// single-chapter book: ":21", ":6-9", ":4,5,7-8".
var verseList = regexp.MustCompile(`^:\s*(\d+(?:\s*[-,]\s*\d+)*)`)

// trailingVerses repairs Nave's links to single-chapter books. ref is the
// osisRef and rest the markup after the attribute; when ref is verse 1 of
// a single-chapter book and the link's text is followed by a verse list,
// it returns one reference per item of the list.
func trailingVerses(ref, rest string) ([]string, bool) {
	book, ok := strings.CutSuffix(ref, ".1.1")
	if b, known := corpus.BookByOSIS(book); !ok || !known || !b.SingleChapter() {
		return nil, false
	}
	// Skip the rest of the start tag and the link text, which holds no
	// markup, to the end tag.
	gt := strings.IndexByte(rest, '>')
	if gt < 0 {
		return nil, false
	}
	text, after, ok := strings.Cut(rest[gt+1:], "<")
	if !ok || strings.ContainsAny(text, ":>") || !strings.HasPrefix(after, "/ref>") {
		return nil, false
	}
	m := verseList.FindStringSubmatch(after[len("/ref>"):])
	if m == nil {
		return nil, false
	}
	var refs []string
	for _, item := range strings.Split(m[1], ",") {
		a, b, isRange := strings.Cut(item, "-")
		r := book + ".1." + strings.TrimSpace(a)
		if isRange {
			r += "-" + book + ".1." + strings.TrimSpace(b)
		}
		refs = append(refs, r)
	}
	return refs, true
}

// parseOSISRange reads "Book.C.V", "Book.C" (a whole chapter) or a range
// of two of them joined by "-", where the end may omit the book
// ("Gen.1.31-2.3" is accepted as well as "Gen.1.31-Gen.2.3"). It returns
// the first and last verse, both valid KJV verses of one book, first not
// after last.
func parseOSISRange(ref string) (first, last corpus.VerseID, ok bool) {
	a, b, isRange := strings.Cut(ref, "-")
	book, startCh, startV, ok := parseOSISPoint(a, "")
	if !ok {
		return 0, 0, false
	}
	endCh, endV := startCh, startV
	if isRange {
		var endBook string
		endBook, endCh, endV, ok = parseOSISPoint(b, book)
		if !ok || endBook != book {
			return 0, 0, false
		}
	}
	bk, ok := corpus.BookByOSIS(book)
	if !ok {
		return 0, 0, false
	}
	if startV == 0 {
		startV = 1
	}
	if endV == 0 {
		endV = bk.Verses(endCh)
	}
	first = corpus.NewVerseID(bk.Number, startCh, startV)
	last = corpus.NewVerseID(bk.Number, endCh, endV)
	if !first.Valid() || !last.Valid() || first > last {
		return 0, 0, false
	}
	return first, last, true
}

// parseOSISPoint reads "Book.C.V" or "Book.C"; verse is 0 for a whole
// chapter. When defaultBook is set the book may be left out ("2.3").
func parseOSISPoint(s, defaultBook string) (book string, chapter, verse int, ok bool) {
	parts := strings.Split(s, ".")
	if defaultBook != "" && len(parts) > 0 && isNumber(parts[0]) {
		parts = append([]string{defaultBook}, parts...)
	}
	if len(parts) < 2 || len(parts) > 3 || parts[0] == "" {
		return "", 0, 0, false
	}
	chapter, err := strconv.Atoi(parts[1])
	if err != nil || !isNumber(parts[1]) || chapter < 1 || chapter > 999 {
		return "", 0, 0, false
	}
	if len(parts) == 3 {
		verse, err = strconv.Atoi(parts[2])
		if err != nil || !isNumber(parts[2]) || verse < 1 || verse > 999 {
			return "", 0, 0, false
		}
	}
	return parts[0], chapter, verse, true
}

func isNumber(s string) bool {
	if s == "" || len(s) > 3 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// verseRange yields the verses from first to last, both valid and in one
// book, across chapter ends.
func verseRange(first, last corpus.VerseID) iter.Seq[corpus.VerseID] {
	return func(yield func(corpus.VerseID) bool) {
		b, _ := corpus.BookByNumber(first.Book())
		for ch := first.Chapter(); ch <= last.Chapter(); ch++ {
			v0, v1 := 1, b.Verses(ch)
			if ch == first.Chapter() {
				v0 = first.Verse()
			}
			if ch == last.Chapter() {
				v1 = last.Verse()
			}
			for v := v0; v <= v1; v++ {
				if !yield(corpus.NewVerseID(b.Number, ch, v)) {
					return
				}
			}
		}
	}
}
