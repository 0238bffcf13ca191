package pipeline

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/selahdev/selah/corpus"
)

// Grounding is enforced on every draft, whoever wrote it, before the
// Answerer returns it. A draft with an empty answer or summary, or a
// runaway one, is refused outright; then the rules, in order:
//
//  1. A citation is a pointer into the retrieved candidates: by number, by
//     reference string, or by naming a candidate in the text ("John 3:16"
//     or a leftover "[2]", which becomes "(John 3:16)"). Citations of
//     anything else (numbers out of range, verses that were not retrieved,
//     unreadable references, whole chapters) are dropped.
//  2. At most maxRefs references survive, adjacent verses of a chapter
//     counting as one; later citations that would need another reference
//     are dropped. No surviving citation: the draft is ungrounded.
//  3. Every reference-looking string in the answer or the summary ("Book
//     C:V", "Book C:V-W", "Book C") must lie within the surviving citations
//     (a bare chapter must hold one of them). An invented or uncited
//     reference makes the draft ungrounded: the text would vouch for a
//     verse the reader is not shown.
//  4. Every quotation of three words or more (between "…" or “…”) must be
//     the wording of a surviving reference's database text, word for word
//     (case and punctuation aside, ellipses allowed); an unclosed
//     quotation cannot be checked and counts as a misquote. One misquote
//     makes the whole draft ungrounded: patching a model's prose is riskier
//     than replacing it, and the extractive answer is always available.
//     Quotations in single quotes are not recognised (an apostrophe is not
//     a quotation mark); the system prompt asks for double quotes.
//
//  5. For a draft that promises it (CitedSentences: the composer's), every
//     sentence of the answer names at least one kept reference, so a
//     claim always says which verse it rests on (a whole chapter counts
//     when every verse of it is kept), and the summary is one sentence.
//
// An ungrounded draft is replaced by the composer's answer. Whatever
// survives, the text of every reference is read from the database, never
// taken from the draft.

// maxDraftBytes bounds a draft's answer; a runaway completion is not a
// concise answer.
const maxDraftBytes = 4000

// minQuoteWords is the shortest quotation that is checked: shorter quoted
// fragments are phrases ("born again"), not claims about a verse's wording.
const minQuoteWords = 3

// groundedDraft is a draft that passed: its text with candidate numbers
// replaced by references, and its cited verses as references (runs of
// adjacent verses), in order of first citation.
type groundedDraft struct {
	Answer, Summary string
	Groups          [][]corpus.VerseID
}

// ungroundedError says why a draft was refused; the reason goes to the log.
type ungroundedError struct{ reason string }

func (e *ungroundedError) Error() string { return "pipeline: ungrounded draft: " + e.reason }

func ungrounded(format string, args ...any) error {
	return &ungroundedError{reason: fmt.Sprintf(format, args...)}
}

// markerPattern finds candidate numbers left in prose: "[2]", "[1, 3]".
var markerPattern = regexp.MustCompile(`\[\s*(\d{1,3}(?:\s*,\s*\d{1,3})*)\s*\]`)

// refPattern finds reference-looking strings: an optional book number, a
// capitalised name (two words for "Song of Solomon"), a chapter and
// optionally a verse or verse range. Whether the name is a book is
// decided by corpus.ParseReference.
var refPattern = regexp.MustCompile(`\b(?:(?:[123]|I{1,3}|First|Second|Third)\s?)?[A-Z][A-Za-z]+\.?(?:\s+of\s+[A-Z][a-z]+)?\s+\d{1,3}(?:\s*:\s*\d{1,3}(?:\s*[-–—]\s*\d{1,3}(?:\s*:\s*\d{1,3})?)?)?\b`)

// ground checks d against the candidates (rules above).
func ground(d Draft, cands []Candidate, maxRefs int) (groundedDraft, error) {
	answer, summary := strings.TrimSpace(d.Answer), strings.TrimSpace(d.Summary)
	switch {
	case answer == "" || summary == "":
		return groundedDraft{}, ungrounded("empty answer or summary")
	case len(answer) > maxDraftBytes || len(summary) > maxDraftBytes/4:
		return groundedDraft{}, ungrounded("draft too long (%d bytes)", len(answer)+len(summary))
	}
	byN := make(map[int]corpus.VerseID, len(cands))
	isCand := make(map[corpus.VerseID]bool, len(cands))
	for _, c := range cands {
		byN[c.N] = c.Verse.ID
		isCand[c.Verse.ID] = true
	}

	// Rule 1: collect the citations, listed ones first.
	var cited []corpus.VerseID
	cite := func(id corpus.VerseID) {
		if isCand[id] && !slices.Contains(cited, id) {
			cited = append(cited, id)
		}
	}
	for _, n := range d.Citations {
		cite(byN[n])
	}
	for _, s := range d.References {
		// A whole chapter points at no verse in particular.
		if ref, err := corpus.ParseReference(s); err == nil && !ref.WholeChapter() {
			forEachVerse(ref, cite)
		}
	}
	texts := []string{answer, summary}
	var named []corpus.Reference
	for i, t := range texts {
		var bad error
		texts[i] = markerPattern.ReplaceAllStringFunc(t, func(m string) string {
			var refs []string
			for _, f := range strings.Split(markerPattern.FindStringSubmatch(m)[1], ",") {
				n, _ := strconv.Atoi(strings.TrimSpace(f))
				id, ok := byN[n]
				if !ok {
					bad = ungrounded("marker %s names no candidate", m)
					continue
				}
				cite(id)
				refs = append(refs, id.String())
			}
			return "(" + strings.Join(refs, "; ") + ")"
		})
		if bad != nil {
			return groundedDraft{}, bad
		}
		refs, err := namedReferences(texts[i])
		if err != nil {
			return groundedDraft{}, err
		}
		for _, ref := range refs {
			// Naming a chapter is context, not a citation of every
			// candidate in it.
			if !ref.WholeChapter() {
				forEachVerse(ref, cite)
			}
		}
		named = append(named, refs...)
	}

	// Rule 2: keep what fits in maxRefs references, the first cited
	// first. A verse that did not fit may fit once a later one joins the
	// kept: Matthew 5:3, cited after 5:5 but before 5:4, joins them as
	// Matthew 5:3-5. So the pass repeats while it keeps more; a composer
	// that cites a passage whose verses fit keeps them all.
	var kept []corpus.VerseID
	for more := true; more; {
		more = false
		for _, id := range cited {
			if !slices.Contains(kept, id) && len(groupAdjacent(append(slices.Clone(kept), id))) <= maxRefs {
				kept = append(kept, id)
				more = true
			}
		}
	}
	if len(kept) == 0 {
		return groundedDraft{}, ungrounded("no citation of a retrieved verse")
	}

	// Rule 3: the text vouches only for kept verses.
	for _, ref := range named {
		if !covered(ref, kept) {
			return groundedDraft{}, ungrounded("text names %s, which is not a kept citation", ref)
		}
	}

	// Rule 4: quotations are the kept verses' wording.
	groups := groupAdjacent(kept)
	var sources [][]string
	textOf := make(map[corpus.VerseID]string, len(cands))
	for _, c := range cands {
		// A psalm's title is its first verse's wording too ("A Psalm of
		// David"), read from the module like the text.
		textOf[c.Verse.ID] = strings.TrimSpace(c.Verse.Title + " " + c.Verse.Text)
	}
	for _, g := range groups {
		var b strings.Builder
		for _, id := range g {
			b.WriteString(textOf[id])
			b.WriteByte(' ')
		}
		sources = append(sources, quoteWords(b.String()))
	}
	for _, t := range texts {
		quotes, err := quotations(t)
		if err != nil {
			return groundedDraft{}, err
		}
		for _, q := range quotes {
			if !quoteMatches(q, sources) {
				return groundedDraft{}, ungrounded("misquote %q", q)
			}
		}
	}
	// Rule 5: every sentence of the answer names a reference it rests on,
	// and the summary is one sentence.
	for _, sent := range Sentences(texts[0]) {
		if !d.CitedSentences {
			break
		}
		refs, _ := namedReferences(sent)
		if !slices.ContainsFunc(refs, func(r corpus.Reference) bool { return citedBy(r, kept) }) {
			return groundedDraft{}, ungrounded("sentence without a citation: %q", sent)
		}
	}
	if n := len(Sentences(texts[1])); d.CitedSentences && n != 1 {
		return groundedDraft{}, ungrounded("summary of %d sentences", n)
	}
	return groundedDraft{Answer: texts[0], Summary: texts[1], Groups: groups}, nil
}

// forEachVerse calls fn with each verse of ref.
func forEachVerse(ref corpus.Reference, fn func(corpus.VerseID)) {
	for _, id := range ref.VerseIDs() {
		fn(id)
	}
}

// namedReferences returns the references named in text. A string that
// looks like a chapter and verse but names no verse of the KJV ("Hezekiah
// 3:5", "John 3:99") is an invented reference: an error.
func namedReferences(text string) ([]corpus.Reference, error) {
	var out []corpus.Reference
	for _, loc := range refPattern.FindAllStringIndex(text, -1) {
		s := text[loc[0]:loc[1]]
		ref, err := corpus.ParseReference(s)
		if err != nil {
			// "I" may be the pronoun ("I Samuel" or "I Jesus 1:1" aside):
			// retry without a leading book number.
			if f := strings.Fields(s); len(f) > 2 {
				ref, err = corpus.ParseReference(strings.Join(f[1:], " "))
			}
		}
		if err != nil {
			if strings.Contains(s, ":") {
				return nil, ungrounded("text names %q, which is no verse of the KJV", s)
			}
			continue // "Chapter 3", "Proverbs" in prose: not a claim about a verse
		}
		out = append(out, ref)
	}
	return out, nil
}

// citedBy reports whether a sentence naming ref cites kept verses: a verse
// or a run of them, all kept; a whole chapter only when every verse of it
// is kept ("Psalms 23", asked for by name), for it otherwise points at no
// verse in particular.
func citedBy(ref corpus.Reference, kept []corpus.VerseID) bool {
	if !ref.WholeChapter() {
		return covered(ref, kept)
	}
	all := true
	forEachVerse(ref, func(id corpus.VerseID) { all = all && slices.Contains(kept, id) })
	return all
}

// covered reports whether ref names only kept verses, or, for a whole
// chapter, the chapter of a kept verse.
func covered(ref corpus.Reference, kept []corpus.VerseID) bool {
	if ref.WholeChapter() {
		return slices.ContainsFunc(kept, ref.Contains)
	}
	ok := true
	forEachVerse(ref, func(id corpus.VerseID) {
		ok = ok && slices.Contains(kept, id)
	})
	return ok
}

// groupAdjacent splits verses into references: runs of consecutive verses
// within one chapter, each run ascending, the runs in order of their first
// verse's position in ids. Duplicates are ignored.
func groupAdjacent(ids []corpus.VerseID) [][]corpus.VerseID {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	var runs [][]corpus.VerseID
	for _, id := range sorted {
		if n := len(runs); n > 0 {
			last := runs[n-1][len(runs[n-1])-1]
			if id == last+1 && id.Chapter() == last.Chapter() && id.Book() == last.Book() {
				runs[n-1] = append(runs[n-1], id)
				continue
			}
		}
		runs = append(runs, []corpus.VerseID{id})
	}
	first := func(run []corpus.VerseID) int {
		i := len(ids)
		for _, id := range run {
			if j := slices.Index(ids, id); j < i {
				i = j
			}
		}
		return i
	}
	slices.SortStableFunc(runs, func(a, b []corpus.VerseID) int { return cmp.Compare(first(a), first(b)) })
	return runs
}

// quotations returns the quoted passages of text of minQuoteWords words or
// more. Unbalanced quotation marks are an error: the quotation they open
// cannot be checked.
func quotations(text string) ([]string, error) {
	var out []string
	var cur strings.Builder
	open := rune(0)
	for _, r := range text {
		switch {
		case open == 0 && (r == '"' || r == '“'):
			open = r
			cur.Reset()
		case open != 0 && (r == '"' && open == '"' || r == '”' && open == '“'):
			if q := cur.String(); len(quoteWords(q)) >= minQuoteWords {
				out = append(out, q)
			}
			open = 0
		case r == '”' || open == '“' && r == '"' || open == '"' && r == '“':
			return nil, ungrounded("mismatched quotation marks")
		case open != 0:
			cur.WriteRune(r)
		}
	}
	if open != 0 {
		return nil, ungrounded("unclosed quotation")
	}
	return out, nil
}

// ellipsis splits a quotation where words were left out.
var ellipsis = regexp.MustCompile(`…|\.\s*\.\s*\.|\[[^\]]*\]`)

// quoteMatches reports whether q is the wording of one of the sources: each
// part between ellipses occurs in it, in order.
func quoteMatches(q string, sources [][]string) bool {
	parts := ellipsis.Split(q, -1)
	for _, src := range sources {
		rest, ok := src, true
		for _, p := range parts {
			w := quoteWords(p)
			if len(w) == 0 {
				continue
			}
			i := indexWords(rest, w)
			if i < 0 {
				ok = false
				break
			}
			rest = rest[i+len(w):]
		}
		if ok {
			return true
		}
	}
	return false
}

// quoteWords splits text into lower-case words, apostrophes dropped, so
// "LORD’s" and "Lord's" compare equal and punctuation does not count.
func quoteWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(strings.NewReplacer("'", "", "’", "", "‘", "").Replace(text)),
		func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// indexWords is the index of the first run of w in s, or -1.
func indexWords(s, w []string) int {
	for i := 0; i+len(w) <= len(s); i++ {
		if slices.Equal(s[i:i+len(w)], w) {
			return i
		}
	}
	return -1
}
