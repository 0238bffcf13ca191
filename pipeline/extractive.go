package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/selahdev/selah/corpus"
)

// Extractive is the offline generator and the fallback of every other: it
// answers by quoting the best candidates with their references, in a few
// fixed sentences. It invents nothing (each quotation is the database's
// text, at most shortened at a word boundary with an ellipsis) and the
// same question and candidates always give the same answer.
type Extractive struct{}

// Name is "extractive".
func (Extractive) Name() string { return GeneratorExtractive }

// Extractive answers quote at most this many references, so they stay at
// two to four sentences.
const maxExtractiveQuotes = 3

// particularPenalty is how many places a particular verse moves down the
// retrieval order. Measured on ask.jsonl: 5 lifts the hit rate from 0.40
// (no penalty) to 0.47; 3 or 8 give 0.44, and dropping such verses
// altogether 0.44, since some questions are about a person or an event.
const particularPenalty = 5

// Quotation lengths, in runes. A verse longer than maxQuoteRunes is cut to
// at most cutQuoteRunes, at a clause boundary when there is one past
// minCutRunes, else at a word boundary. The summary quotes a shorter clause.
const (
	maxQuoteRunes   = 220
	cutQuoteRunes   = 180
	minCutRunes     = 60
	maxSummaryRunes = 110
	minSummaryRunes = 20
)

// Generate composes the answer. It fails only when there is no candidate.
func (Extractive) Generate(ctx context.Context, q Question) (Draft, error) {
	groups := extractiveChoice(q)
	if len(groups) == 0 {
		return Draft{}, fmt.Errorf("pipeline: extractive: no candidates")
	}
	// Each sentence is a lead-in, the quotation and its reference:
	//   The King James Bible speaks to this: "…" (1 Peter 5:7).
	leads := []string{"The King James Bible speaks to this", " It also says", " And again"}
	var b strings.Builder
	var d Draft
	for i, g := range groups {
		quote := quotation(groupText(g), maxQuoteRunes, cutQuoteRunes, minCutRunes)
		fmt.Fprintf(&b, "%s: \"%s\" (%s).", leads[min(i, len(leads)-1)], quote, groupReference(g))
		for _, c := range g {
			d.Citations = append(d.Citations, c.N)
		}
	}
	if len(groups) == 1 {
		v := groups[0][0].Verse
		book := v.Book.Name
		if book == "Psalms" {
			book = "Psalm" // "Psalm 23", as people say it; ParseReference reads both
		}
		fmt.Fprintf(&b, " The verses around it in %s %d give the fuller context.", book, v.Chapter)
	}
	d.Answer = b.String()
	clause := quotation(firstClause(groupText(groups[0])), maxSummaryRunes, maxSummaryRunes, minSummaryRunes)
	d.Summary = fmt.Sprintf("In short: \"%s\" (%s).", clause, groupReference(groups[0]))
	return d, nil
}

// extractiveChoice picks the candidates to quote, as references (runs of
// adjacent verses): the candidates in retrieval order, a particular verse
// (see particular) moved particularPenalty places down; the first of them,
// then each that shares at least one term with the question, until
// min(MaxRefs, maxExtractiveQuotes) references are full. A candidate next
// to one already chosen joins its reference for free. (Requiring more of a
// companion's evidence, say 60% of the first's, costs hit rate: 0.47 to
// 0.42. Retrieval also matches the WEB wording, which evidence cannot see.)
func extractiveChoice(q Question) [][]Candidate {
	if len(q.Candidates) == 0 {
		return nil
	}
	order := slices.Clone(q.Candidates)
	// place is twice the rank, plus one for a particular verse, so that it
	// loses ties.
	place := func(c Candidate) int {
		if c.Particular {
			return 2*(c.N+particularPenalty) + 1
		}
		return 2 * c.N
	}
	slices.SortStableFunc(order, func(a, b Candidate) int { return cmp.Compare(place(a), place(b)) })
	limit := max(1, min(q.MaxRefs, maxExtractiveQuotes))
	byID := make(map[corpus.VerseID]Candidate, len(order))
	var chosen []corpus.VerseID
	for i, c := range order {
		if i > 0 && c.Evidence == 0 {
			continue
		}
		if len(groupAdjacent(append(slices.Clone(chosen), c.Verse.ID))) > limit {
			continue
		}
		chosen = append(chosen, c.Verse.ID)
		byID[c.Verse.ID] = c
	}
	var out [][]Candidate
	for _, g := range groupAdjacent(chosen) {
		cs := make([]Candidate, len(g))
		for i, id := range g {
			cs[i] = byID[id]
		}
		out = append(out, cs)
	}
	return out
}

// groupReference is the canonical reference of a run of adjacent verses.
func groupReference(g []Candidate) string {
	ref, err := corpus.ReferenceForRange(g[0].Verse.ID, g[len(g)-1].Verse.ID)
	if err != nil {
		return g[0].Verse.ID.String()
	}
	return ref.String()
}

// groupText is the verses' text joined with spaces.
func groupText(g []Candidate) string {
	texts := make([]string, len(g))
	for i, c := range g {
		texts[i] = strings.TrimSpace(c.Verse.Text)
	}
	return strings.Join(texts, " ")
}

// firstClause is text up to its first colon or semicolon, when that leaves
// a clause worth quoting; the KJV's colons and semicolons mark its
// sense-units ("Casting all your care upon him; for he careth for you.").
func firstClause(text string) string {
	for i, r := range text {
		if (r == ';' || r == ':') && utf8.RuneCountInString(text[:i]) >= minSummaryRunes {
			return text[:i]
		}
	}
	return text
}

// quotation returns text as a quotation to be followed by a reference and
// a full stop: a final full stop is dropped, a question or exclamation
// mark kept. Text over maxRunes runes is cut to at most cutRunes, at the
// last clause mark (, ; :) past minCutRunes, else at the last space; a cut,
// or a verse that ends mid-sentence, ends in an ellipsis.
func quotation(text string, maxRunes, cutRunes, minCutRunes int) string {
	text = strings.TrimSpace(text)
	if utf8.RuneCountInString(text) > maxRunes {
		head := string([]rune(text)[:cutRunes])
		end := strings.LastIndexAny(head, ",;:")
		if end < 0 || utf8.RuneCountInString(head[:end]) < minCutRunes {
			end = strings.LastIndexByte(head, ' ')
		}
		if end > 0 {
			head = head[:end]
		}
		text = head
	}
	switch last, _ := utf8.DecodeLastRuneInString(text); last {
	case '.':
		return strings.TrimSuffix(text, ".")
	case '?', '!':
		return text
	}
	return strings.TrimRight(text, ",;:-— ") + "…"
}

// titles are capitalised words that do not make a verse particular: names
// and titles of God, and words the KJV capitalises in teaching.
var titles = map[string]bool{
	"God": true, "GOD": true, "LORD": true, "Lord": true, "Jesus": true,
	"Christ": true, "Father": true, "Spirit": true, "Holy": true, "Ghost": true,
	"Son": true, "I": true, "O": true, "Amen": true, "Almighty": true,
}

// particular reports whether a verse is tied to people, places or events
// (it names someone other than God, or tells that something "came to
// pass") rather than teaching, promising or commanding. An everyday
// question is answered by the latter: "Saul said to his servant ... let us
// return; lest my father leave caring for the asses" shares words with
// "how can I stop worrying" but does not answer it. Any capital inside a
// sentence counts, since the KJV opens direct speech with one after a
// comma and reported speech ("And they asked them, saying, Is this your
// son") is an event; but in a verse the KJV marks as Jesus' words only a
// word it writes as a name does (isName: properNames), for his speech
// teaches ("Marvel not that I said unto thee, Ye must be born again").
func particular(v corpus.Verse, isName func(lower string) bool) bool {
	text := v.Text
	if strings.Contains(text, "came to pass") {
		return true
	}
	words := strings.Fields(text)
	for i := 1; i < len(words); i++ {
		w := strings.TrimFunc(words[i], func(r rune) bool { return !unicode.IsLetter(r) })
		w = strings.TrimSuffix(strings.TrimSuffix(w, "’s"), "’")
		if w == "" || titles[w] || !unicode.IsUpper([]rune(w)[0]) || v.WordsOfChrist && !isName(strings.ToLower(w)) {
			continue
		}
		// A capital after a full stop or a question starts a sentence.
		if prev := words[i-1]; strings.ContainsAny(prev[len(prev)-1:], ".?!") {
			continue
		}
		return true
	}
	return false
}
