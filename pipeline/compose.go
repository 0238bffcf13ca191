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
	"github.com/selahdev/selah/corpus/wordnet"
)

// Composer is the offline generator, the default and the fallback of every
// other: it writes a concise answer in sentences of its own, each a claim
// taken from a source and tied to the verses it rests on:
//
//   - Nave's Topical Bible sub-entries the question reaches through the
//     topic router, their phrases turned into sentences by grammar rules
//     (phraseClause): "Melchizedek was king of Salem (Genesis 14:18-20)";
//   - the first sentence of a curated topic hub's summary, tied to the hub's
//     first passage among the candidates;
//   - the best passage, quoted briefly, each quotation the database's
//     wording and each cited passage extended to the end of its sentence
//     (Galatians 5:22-23, not 5:22 cut at "faith,").
//
// It states nothing that no cited verse or Nave's entry holds: every
// sentence names the references it rests on, and the grounding check
// (ground.go) refuses a sentence without one. The same question and
// candidates always give the same answer.
type Composer struct{}

// Name is "extractive", the name the API has always given the offline
// generator (clients switch on it); the answer is now composed.
func (Composer) Name() string { return GeneratorExtractive }

// Composer limits: how many Nave's facts and quotations an answer holds,
// and how far a cited verse is extended to finish its sentence.
const (
	maxFacts          = 3
	maxFactVerses     = 3
	maxComposedQuotes = 2
	maxSpanVerses     = 4
)

// Generate composes the answer. It fails only when there is no candidate.
func (Composer) Generate(ctx context.Context, q Question) (Draft, error) {
	if len(q.Candidates) == 0 {
		return Draft{}, fmt.Errorf("pipeline: composer: no candidates")
	}
	c := newComposition(q)
	if len(q.Passages) > 0 {
		return c.passageDraft()
	}
	if q.Quote != nil {
		if own := c.quoteFactSentences(); len(own) > 0 {
			c.moreReferences()
			return Draft{Answer: strings.Join(own, " "), Summary: own[0], Citations: c.citations(), CitedSentences: true}, nil
		}
	}
	if q.Reason != nil {
		if own, summary := c.reasonSentences(); len(own) > 0 {
			c.moreReferences()
			return Draft{Answer: strings.Join(own, " "), Summary: summary, Citations: c.citations(), CitedSentences: true}, nil
		}
	}
	if q.When != nil {
		if own, summary := c.whenSentences(); len(own) > 0 {
			c.moreReferences()
			return Draft{Answer: strings.Join(own, " "), Summary: summary, Citations: c.citations(), CitedSentences: true}, nil
		}
	}
	if q.Summary != nil {
		if own, summary := c.summarySentences(); len(own) > 0 {
			c.moreReferences()
			return Draft{Answer: strings.Join(own, " "), Summary: summary, Citations: c.citations(), CitedSentences: true}, nil
		}
	}
	if q.Kin != nil {
		if own := c.kinSentences(); len(own) > 0 {
			c.moreReferences()
			return Draft{Answer: strings.Join(own, " "), Summary: own[0], Citations: c.citations(), CitedSentences: true}, nil
		}
	}
	if q.Fate != nil {
		if own := c.fateSentences(); len(own) > 0 {
			c.moreReferences()
			return Draft{Answer: strings.Join(own, " "), Summary: own[0], Citations: c.citations(), CitedSentences: true}, nil
		}
	}
	if q.Writer != nil {
		if own := c.writerSentences(); len(own) > 0 {
			return Draft{Answer: strings.Join(own, " "), Summary: own[0], Citations: c.citations(), CitedSentences: true}, nil
		}
	}
	if len(q.Words) > 0 {
		if own := c.wordSentences(); len(own) > 0 {
			return Draft{Answer: strings.Join(own, " "), Summary: own[0], Citations: c.citations(), CitedSentences: true}, nil
		}
	}
	own := c.factSentences(c.q.Facts, false)
	if len(own) == 0 {
		own = c.hubSentences()
		c.hubbed = len(own) > 0
	}
	themed := false
	if len(own) == 0 {
		// A theme's Nave's entries, about passages the search found.
		own = c.factSentences(c.q.ThemeFacts, true)
		themed = len(own) > 0
	}
	quotes := c.quoteSentences(len(own) == 0 || themed)
	c.moreReferences()

	sentences := append(slices.Clone(own), quotes...)
	if len(own) == 0 {
		// Quotations alone do not say what they answer; where Nave's
		// files them is a claim of the source's, tied to them. It leads
		// the answer when it files the first passage quoted; filing only
		// a later one, it follows that first quotation, which it does not
		// describe ("I can do all things" quotes Philippians 4:13, and
		// MYSTERIES files the Deuteronomy 29:29 cited after it).
		if l, lead := c.listingSentence(); l != "" && (lead || len(sentences) == 0) {
			sentences = append([]string{l}, sentences...)
		} else if l != "" {
			sentences = slices.Insert(sentences, 1, l)
		}
	}
	if len(sentences) == 0 {
		return Draft{}, fmt.Errorf("pipeline: composer: nothing to say")
	}
	d := Draft{Answer: strings.Join(sentences, " "), Citations: c.citations(), CitedSentences: true}
	if len(own) > 0 {
		d.Summary = own[0]
	} else {
		d.Summary = c.quoteSummary()
	}
	return d, nil
}

// passageDraft answers a question naming passages: each is cited whole and
// quoted ("John 3:16 reads: "For God so loved the world…"."), and where
// Nave's files it said ("Nave's Topical Bible lists John 3:16 under God
// (love of) and Life (everlasting)."), which is the summary.
func (c *composition) passageDraft() (Draft, error) {
	var sentences []string
	summary := ""
	for _, p := range c.q.Passages {
		if !c.citeWhole(p.Verses) {
			break
		}
		ref := spanReference(p.Verses)
		text := quotation(c.spanText(p.Verses), maxQuoteRunes, cutQuoteRunes, minCutRunes)
		if c.q.Named != "" && len(sentences) == 0 {
			// "For the Great Commission, Matthew 28:18-20 reads: …": the
			// name asked about, which the passage does not hold.
			sentences = append(sentences, fmt.Sprintf("For %s, %s reads: \"%s\" (%s).", c.q.Named, ref, text, ref))
		} else {
			sentences = append(sentences, fmt.Sprintf("%s reads: \"%s\" (%s).", ref, text, ref))
		}
		if len(p.Filed) > 0 {
			s := fmt.Sprintf("Nave's Topical Bible lists %s under %s.", ref, joinAnd(p.Filed))
			sentences = append(sentences, s)
			summary = cmp.Or(summary, s)
		}
	}
	if len(sentences) == 0 {
		return Draft{}, fmt.Errorf("pipeline: composer: nothing to say")
	}
	return Draft{Answer: strings.Join(sentences, " "), Summary: cmp.Or(summary, c.quoteSummary()),
		Citations: c.citations(), CitedSentences: true}, nil
}

// citeWhole adds a passage to the citations as it is, when it fits in
// MaxRefs references.
func (c *composition) citeWhole(ids []corpus.VerseID) bool {
	if len(groupAdjacent(append(slices.Clone(c.chosen), ids...))) > c.maxRefs() {
		return false
	}
	for _, id := range ids {
		if !slices.Contains(c.chosen, id) {
			c.chosen = append(c.chosen, id)
		}
	}
	if c.first == nil {
		c.first = ids
	}
	return true
}

// composition is one answer being composed.
type composition struct {
	q      Question
	byID   map[corpus.VerseID]Candidate
	gram   *grammar
	chosen []corpus.VerseID // cited verses, in order of citation
	// first is the first passage cited, quoted by the summary when there
	// is no sentence of the composer's own.
	first []corpus.VerseID
	// hubbed: the composer's own sentence is a hub's summary, tied to
	// first.
	hubbed bool
}

func newComposition(q Question) *composition {
	c := &composition{q: q, byID: make(map[corpus.VerseID]Candidate, len(q.Candidates))}
	for _, cand := range q.Candidates {
		c.byID[cand.Verse.ID] = cand
	}
	c.gram = composerGrammar()
	return c
}

func (c *composition) maxRefs() int { return max(1, c.q.MaxRefs) }

// cite adds a passage to the citations when it fits in MaxRefs references,
// extended to the end of its sentence when that still fits, and returns its
// reference; ok is false when it does not fit.
func (c *composition) cite(ids []corpus.VerseID) (ref string, ok bool) {
	for _, span := range [][]corpus.VerseID{c.sentenceSpan(ids), ids} {
		if c.citeWhole(span) {
			return spanReference(span), true
		}
	}
	return "", false
}

// sentenceSpan extends a run of adjacent verses to whole sentences: back
// while the verse before it does not end one, forward while its last verse
// does not, through candidates only (the Answerer offers a cited verse's
// neighbours as candidates) and up to maxSpanVerses verses. The KJV ends a
// sentence with a full stop, a question or an exclamation mark; a verse
// ending in a comma, colon or semicolon runs on, and so does a question
// the next verse replies to (Candidate.Answered).
func (c *composition) sentenceSpan(ids []corpus.VerseID) []corpus.VerseID {
	span := slices.Clone(ids)
	slices.Sort(span)
	for len(span) < maxSpanVerses {
		last := span[len(span)-1]
		next, ok := c.byID[last+1]
		if endsSentence(c.byID[last].Verse.Text) && !c.byID[last].Answered || !ok || next.Verse.ID.Chapter() != last.Chapter() {
			break
		}
		span = append(span, next.Verse.ID)
	}
	for len(span) < maxSpanVerses {
		prev, ok := c.byID[span[0]-1]
		if !ok || prev.Verse.ID.Chapter() != span[0].Chapter() || prev.Verse.ID.Book() != span[0].Book() || endsSentence(prev.Verse.Text) {
			break
		}
		span = append([]corpus.VerseID{prev.Verse.ID}, span...)
	}
	return span
}

// endsSentence reports whether a verse's text ends a sentence.
func endsSentence(text string) bool {
	r := finalMark(text)
	return r == '.' || r == '?' || r == '!'
}

// asksQuestion reports whether a verse's text ends with a question.
func asksQuestion(text string) bool { return finalMark(text) == '?' }

// finalMark is the last character of a verse's text before closing
// quotation marks and brackets.
func finalMark(text string) rune {
	r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(strings.TrimSpace(text), "’'\")"))
	return r
}

// spanReference is the canonical reference of a run of adjacent verses.
func spanReference(span []corpus.VerseID) string {
	ref, err := corpus.ReferenceForRange(span[0], span[len(span)-1])
	if err != nil {
		return span[0].String()
	}
	return ref.String()
}

// spanText is the verses' text joined with spaces.
func (c *composition) spanText(span []corpus.VerseID) string {
	texts := make([]string, 0, len(span))
	for _, id := range span {
		texts = append(texts, strings.TrimSpace(c.byID[id].Verse.Text))
	}
	return strings.Join(texts, " ")
}

// citations are the cited verses as candidate numbers.
func (c *composition) citations() []int {
	out := make([]int, 0, len(c.chosen))
	for _, id := range c.chosen {
		out = append(out, c.byID[id].N)
	}
	return out
}

// factSentences turns the Nave's entries of the best topic (and of the
// next when the first gives only one clause) into sentences. A theme's
// entries (theme set) are held to more: a phrase of its own of two words
// or more in one piece ("Uncharitable judgment forbidden", not "Evil" or
// "Character of, and precepts relating to"), about a passage that holds
// the question's words (minEvidence). A theme lists instances, and only
// such an entry says something of the passage cited.
func (c *composition) factSentences(facts []Fact, theme bool) []string {
	var out []string
	topics := 0
	for i := 0; i < len(facts) && topics < 2; {
		topic := facts[i].Topic
		subject := topicSubject(topic)
		j := i
		for j < len(facts) && facts[j].Topic == topic {
			j++
		}
		clauses := c.topicClauses(subject, facts[i:j], theme)
		i = j
		topics++
		out = append(out, joinClauses(subject, c.gram.plural(subject), clauses)...)
		if len(out) > 1 {
			break
		}
	}
	return out
}

// topicClauses turns up to maxFacts of one topic's facts into clauses, in
// the facts' order. Siblings come second: Nave's lists the alternatives of
// one kind under a parent ("Called — Day of Pentecost", "Called — Feast of
// Weeks"), and an answer that spends its clauses on one group says one
// thing of its subject ("What happened at Pentecost?" is the Holy Spirit
// given, not three names), so a second sibling is taken only when the
// other entries leave room.
func (c *composition) topicClauses(subject string, facts []Fact, theme bool) []clause {
	type placed struct {
		at int
		cl clause
	}
	var got []placed
	used := map[string]bool{}
	done := make([]bool, len(facts))
	for pass := range 2 {
		for k, f := range facts {
			if len(got) >= maxFacts || done[k] {
				continue
			}
			parent, _, sub := cutLast(f.Entry, " — ")
			if pass == 0 && sub && used[parent] {
				continue
			}
			done[k] = true
			if _, own, _ := cutLast(f.Entry, " — "); naveSorting(cmp.Or(own, f.Entry)) || theme && !wholePhrase(f.Entry) {
				continue
			}
			cl, ok := c.phraseClause(subject, f.Entry)
			if !ok {
				continue
			}
			span := c.factSpan(f)
			if len(span) == 0 || theme && !slices.ContainsFunc(span, func(id corpus.VerseID) bool { return c.byID[id].Evidence >= minEvidence }) {
				continue
			}
			ref, ok := c.cite(span)
			if !ok {
				continue
			}
			cl.ref = ref
			got = append(got, placed{k, cl})
			if sub {
				used[parent] = true
			}
		}
	}
	slices.SortStableFunc(got, func(a, b placed) int { return cmp.Compare(a.at, b.at) })
	out := make([]clause, len(got))
	for k, p := range got {
		out[k] = p.cl
	}
	return out
}

// cutLast slices s around the last instance of sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// factSpan is the entry's principal passage among the candidates, at most
// maxFactVerses long: the run of adjacent verses that holds the first
// verse Nave's lists, when that run is a passage of two verses or more
// ("Her devotion to Naomi" lists Ruth 1:16, 1:17 and, as its setting,
// "with 1:6-18": the passage is 1:16-17, not 1:6-8), else the longest run
// (the first in canonical order of equal runs). Nave's lists an entry's
// passing mentions beside its passage: MELCHIZEDEK's "A priest and type
// of Christ" is Hebrews 5:6, 5:10, 6:20 and 7:1-21, and the passage that
// says so is Hebrews 7, not the first mention. (The router hands an
// entry's verses out first verse of each range first, hence the sort.)
func (c *composition) factSpan(f Fact) []corpus.VerseID {
	if len(f.Verses) == 0 {
		return nil
	}
	var best, run, own []corpus.VerseID
	for _, id := range slices.Sorted(slices.Values(f.Verses)) {
		if _, ok := c.byID[id]; !ok {
			run = nil
			continue
		}
		if n := len(run); n > 0 && (id != run[n-1]+1 || id.Chapter() != run[n-1].Chapter()) {
			run = nil
		}
		run = append(run, id)
		if len(run) > len(best) {
			best = slices.Clone(run)
		}
		if slices.Contains(run, f.Verses[0]) {
			own = slices.Clone(run)
		}
	}
	if len(own) >= 2 {
		best = own
	}
	return best[:min(len(best), maxFactVerses)]
}

// listingSentence says under which Nave's topic the cited passages are
// filed ("Nave's Topical Bible lists Genesis 6:17 and Genesis 7:17 under
// the topic Flood."), naming each cited verse the listing holds: the first
// of the question's Listings that holds a verse of the first passage cited
// (lead), else the first that holds any cited verse. "" when none does.
func (c *composition) listingSentence() (sentence string, lead bool) {
	var fallback string
	for _, f := range c.q.Listings {
		var ids []corpus.VerseID
		for _, id := range f.Verses {
			if slices.Contains(c.chosen, id) {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		var refs []string
		for _, run := range groupAdjacent(ids) {
			refs = append(refs, spanReference(run))
		}
		s := fmt.Sprintf("Nave's Topical Bible lists %s under the topic %s.", joinAnd(refs), topicLabel(f.Topic))
		if slices.ContainsFunc(ids, func(id corpus.VerseID) bool { return slices.Contains(c.first, id) }) {
			return s, true
		}
		if fallback == "" {
			fallback = s
		}
	}
	return fallback, false
}

// hubSentences is the first sentence of the best matching hub's summary,
// tied to the first of the hub's passages among the candidates that
// speaks to the question (evidence above 0): a hub matched on a word of
// the question ("Moses") may be about something else (the law), and its
// summary then does not answer. A summary opening "These passages …"
// names its passage instead: "Passages such as Philippians 4:6 …".
func (c *composition) hubSentences() []string {
	// The hubs' passage that holds most of the question (his words first
	// when the question asks what Jesus said), ties to the better hub and
	// then in the hub's order. Every hub's passage must speak to the
	// question (evidence above 0), the best hub's too: its word lists
	// match on a word ("lost" is the hub on grief) and were written while
	// looking at tuning queries (issue 12), so they never decide alone
	// what an answer says ("what does the parable of the lost sheep
	// teach" opened with the hub on mourning; askdev6 +1, DEVELOPERS.md).
	bestHub, best, bestScore := -1, corpus.VerseID(0), 0.0
	for hi, h := range c.q.Hubs {
		if firstSentence(h.Summary) == "" {
			continue
		}
		for _, id := range h.Verses {
			cand, ok := c.byID[id]
			if !ok || cand.Evidence == 0 {
				continue
			}
			score := cand.Evidence + 1e-3
			if c.q.JesusWords && cand.Verse.WordsOfChrist {
				score += 1
			}
			if score > bestScore {
				bestHub, best, bestScore = hi, id, score
			}
		}
	}
	if bestHub < 0 || c.q.JesusWords && !c.byID[best].Verse.WordsOfChrist {
		// Asked what Jesus said, an answer opens with his words: a
		// hub none of whose passages he spoke does not lead it.
		return nil
	}
	first := firstSentence(c.q.Hubs[bestHub].Summary)
	ref, ok := c.cite([]corpus.VerseID{best})
	if !ok {
		return nil
	}
	if rest, ok := strings.CutPrefix(first, "These passages "); ok {
		return []string{"Passages such as " + ref + " " + rest}
	}
	return []string{strings.TrimRight(first, ".") + " (" + ref + ")."}
}

// firstSentence is text up to its first full stop followed by a space or
// the end.
func firstSentence(text string) string {
	text = strings.TrimSpace(text)
	if i := strings.Index(text, ". "); i >= 0 {
		return text[:i+1]
	}
	return text
}

// quoteSentences quotes the best passages briefly: the first fact's
// passage when there are facts, else the candidates in the extractive
// order (see rankCandidates). alone is set when the answer has no sentence
// of its own; it then quotes more.
func (c *composition) quoteSentences(alone bool) []string {
	n := 1
	if alone {
		n = maxComposedQuotes
	}
	var out []string
	quoted := map[corpus.VerseID]bool{}
	quote := func(span []corpus.VerseID) {
		ref := spanReference(span)
		text := quotation(c.spanText(span), maxQuoteRunes, cutQuoteRunes, minCutRunes)
		lead := "Scripture says"
		if len(out) > 0 {
			lead = "It also says"
		}
		out = append(out, fmt.Sprintf("%s: \"%s\" (%s).", lead, text, ref))
		for _, id := range span {
			quoted[id] = true
		}
	}
	if len(c.chosen) > 0 && (len(c.q.Facts) > 0 || c.hubbed) {
		// The passage of the first fact or of the hub's summary, already
		// cited: the quotation shows what the sentence says it says.
		quote(c.first)
		return out
	}
	for _, cand := range c.rankCandidates() {
		if len(out) >= n {
			break
		}
		if quoted[cand.Verse.ID] || (len(out) > 0 || len(c.chosen) > 0) && cand.Evidence < minEvidence && !cand.Key {
			continue
		}
		chosen, first := slices.Clone(c.chosen), c.first
		if _, ok := c.cite([]corpus.VerseID{cand.Verse.ID}); !ok {
			continue
		}
		run := c.chosenRun(cand.Verse.ID)
		if slices.ContainsFunc(run, func(id corpus.VerseID) bool { return quoted[id] }) {
			// Cited, it joins a passage already quoted ("Scripture says:
			// "But Gehazi …" (2 Kings 5:20). It also says: "But Gehazi …"
			// (2 Kings 5:20-21)"): quoted, it would say that passage again.
			c.chosen, c.first = chosen, first
			continue
		}
		quote(run)
	}
	return out
}

// chosenRun is the run of adjacent cited verses holding id.
func (c *composition) chosenRun(id corpus.VerseID) []corpus.VerseID {
	for _, g := range groupAdjacent(c.chosen) {
		if slices.Contains(g, id) {
			return g
		}
	}
	return []corpus.VerseID{id}
}

// moreReferences cites further relevant candidates, in the extractive
// order, until MaxRefs references are full: a verse counts as relevant
// when it speaks to at least minEvidence of the question, or when a
// Nave's fact or a hub put it among the candidates.
func (c *composition) moreReferences() {
	routed := map[corpus.VerseID]bool{}
	for _, f := range c.q.Facts {
		for _, id := range f.Verses {
			routed[id] = true
		}
	}
	for _, cand := range c.rankCandidates() {
		if len(groupAdjacent(c.chosen)) >= c.maxRefs() {
			return
		}
		if slices.Contains(c.chosen, cand.Verse.ID) || cand.Context || cand.Evidence < minEvidence && !routed[cand.Verse.ID] && !cand.Key {
			continue
		}
		c.cite([]corpus.VerseID{cand.Verse.ID})
	}
}

// rankCandidates orders the candidates as the extractive generator did
// (measured there): retrieval order, a particular verse moved
// particularPenalty places down, a verse offered only as context last. A
// question about particular people or events ranks by evidence instead; a
// question about what Jesus said puts his words first.
func (c *composition) rankCandidates() []Candidate {
	order := slices.Clone(c.q.Candidates)
	place := func(x Candidate) int {
		p := 2 * x.N
		if c.q.Particular {
			// By evidence in steps of a tenth, then by retrieval order.
			p = int((1-x.Evidence)*10)*4096 + x.N
		} else if x.Particular {
			p = 2*(x.N+particularPenalty) + 1
		}
		if x.Context {
			p += 1 << 20
		}
		if c.q.JesusWords && !x.Verse.WordsOfChrist {
			// Above every evidence step: his words come first.
			p += 1 << 16
		}
		return p
	}
	slices.SortStableFunc(order, func(a, b Candidate) int { return cmp.Compare(place(a), place(b)) })
	return order
}

// quoteSummary is the summary of an answer without a sentence of its own:
// the first clause of the first passage cited.
func (c *composition) quoteSummary() string {
	span := c.first
	if span == nil {
		span = []corpus.VerseID{c.q.Candidates[0].Verse.ID}
	}
	text := quotation(firstClause(c.spanText(span)), maxSummaryRunes, maxSummaryRunes, minSummaryRunes)
	if c.q.Named != "" {
		return fmt.Sprintf("%s: \"%s\" (%s).", upperFirst(c.q.Named), text, spanReference(span))
	}
	return fmt.Sprintf("In short: \"%s\" (%s).", text, spanReference(span))
}

// Clause kinds: how a Nave's phrase joins its subject.
const (
	clausePredicate = iota // "was king of Salem", "married Boaz": follows the subject
	clauseTopic            // "the institution of Pentecost": Scripture tells of it
	clauseSentence         // "David killed Goliath with a sling": a subject of its own
)

// clause is one Nave's phrase made into part of a sentence.
type clause struct {
	kind int
	text string
	ref  string
}

// joinClauses writes a subject's clauses as sentences: the predicates in
// one ("Melchizedek was king of Salem (Genesis 14:18-20) and a priest …"),
// the topics in another ("Scripture tells of the institution of Pentecost
// (Exodus 23:16) and of …").
func joinClauses(subject string, plural bool, clauses []clause) []string {
	// The sentence with more clauses comes first (the predicates on a
	// tie), so that the answer, and the summary that is its first
	// sentence, opens with what says most: "What happened at Pentecost?"
	// opens with the Holy Spirit given and the feast's institution, not
	// with one of its names.
	kinds := []int{clausePredicate, clauseTopic}
	topics := 0
	for _, cl := range clauses {
		if cl.kind == clauseTopic {
			topics++
		}
	}
	if 2*topics > len(clauses) {
		kinds[0], kinds[1] = kinds[1], kinds[0]
	}
	var out []string
	for _, kind := range kinds {
		var parts []string
		prevWas, prevHead := false, ""
		for _, cl := range clauses {
			if cl.kind != kind {
				continue
			}
			text := cl.text
			// "was king of Salem … and was a priest": the second "was" goes.
			if kind == clausePredicate && prevWas && strings.HasPrefix(text, "was ") {
				text = strings.TrimPrefix(text, "was ")
			}
			// "was called Day of Pentecost, called Feast of Weeks": the
			// repeated verb goes too.
			head, rest, _ := strings.Cut(strings.TrimPrefix(cl.text, "was "), " ")
			if kind == clausePredicate && head == prevHead && rest != "" && strings.HasPrefix(text, head+" ") {
				text = rest
			}
			prevHead = head
			prevWas = strings.HasPrefix(cl.text, "was ")
			if plural && strings.HasPrefix(text, "was ") {
				// "Birds were appointed for food".
				text = "were " + strings.TrimPrefix(text, "was ")
			}
			if kind == clauseTopic && len(parts) > 0 {
				text = "of " + text
			}
			parts = append(parts, text+" ("+cl.ref+")")
		}
		if len(parts) == 0 {
			continue
		}
		lead := subject
		if kind == clauseTopic {
			lead = "Scripture tells of"
		}
		out = append(out, lead+" "+joinAnd(parts)+".")
	}
	// A phrase with a subject of its own is a sentence of its own.
	for _, cl := range clauses {
		if cl.kind == clauseSentence {
			out = append(out, cl.text+" ("+cl.ref+").")
		}
	}
	return out
}

// joinAnd joins "a", "b, c" as "a, b and c".
func joinAnd(parts []string) string {
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// Closed word classes of English grammar the phrase rules read. They are
// grammar, not subject matter: no rule looks at what a phrase is about.
var (
	articles     = map[string]bool{"a": true, "an": true, "the": true}
	possessives  = map[string]bool{"his": true, "her": true, "their": true, "its": true}
	prepositions = map[string]bool{
		"of": true, "to": true, "in": true, "on": true, "at": true, "for": true, "with": true, "by": true,
		"from": true, "into": true, "upon": true, "under": true, "against": true, "before": true,
		"after": true, "unto": true, "over": true, "among": true, "about": true, "through": true, "near": true,
	}
	// openingPrepositions open a phrase as prepositions do ("Concerning
	// the resurrection", "Toward God", "Without ceasing"), and like them
	// leave it no clause of its subject; ending a phrase ("General
	// scriptures concerning") they are no place for the subject, as
	// prepositions are, and are not counted among them.
	openingPrepositions = map[string]bool{
		"concerning": true, "toward": true, "towards": true, "without": true, "within": true, "between": true,
		"during": true, "beside": true, "beyond": true, "throughout": true, "until": true,
	}
	conjunctions = map[string]bool{"and": true, "or": true, "but": true, "nor": true, "as": true}
	relatives    = map[string]bool{"who": true, "whom": true, "whose": true, "which": true, "where": true, "when": true, "that": true}
)

// parablesHeading is the section under which Nave's lists a person's
// parables (JESUS, THE CHRIST's, which PARABLES refers to).
const parablesHeading = "PARABLES OF"

// phraseClause turns a Nave's sub-entry phrase into a clause about subject.
// Nave's phrases are sentence-case noun or verb phrases without a subject;
// the rules go by their first word, with WordNet telling verbs and
// persons apart:
//
//	article + person noun   "A priest and type of Christ" → "was a priest and type of Christ"
//	person noun             "King of Salem"               → "was king of Salem"
//	present verb            "Marries Boaz"                → "married Boaz"
//	past verb               "Gleaned in the field of Boaz"→ "gleaned in the field of Boaz"
//	past verb + by or name  "Called Feast of Weeks"       → "was called Feast of Weeks"
//	adverb + the same       "Also called Saul"            → "was also called Saul"
//	possessive              "Her devotion to Naomi"       → (Scripture tells of) "Ruth's devotion to Naomi"
//	other noun phrase       "Institution of"              → (Scripture tells of) "the institution of Pentecost"
//
// A phrase ending in a preposition ("Institution of") takes the subject as
// its object. A phrase that starts with a preposition or a conjunction
// cannot be joined to a subject this way and is left out (ok false).
func (c *composition) phraseClause(subject, entry string) (clause, bool) {
	if heading, own, ok := strings.Cut(entry, " — "); ok && heading == parablesHeading && !strings.Contains(own, " — ") {
		// JESUS, THE CHRIST lists his parables by their names ("The
		// Good Samaritan"), which read as what he was: he told them.
		words := phraseWords(own)
		if len(words) == 0 {
			return clause{}, false
		}
		return clause{kind: clauseTopic, text: "the parable of " + c.lowerFirst(words)}, true
	}
	if c.actedByParent(entry) {
		return clause{}, false
	}
	words := phraseWords(entry)
	if len(words) == 0 || c.namesInstance(words) {
		return clause{}, false
	}
	own := words // the phrase's own words, without the subject put in
	// ofSelf: the subject is put in after a last "of", and what the phrase
	// names is the subject's (AARON's "Character of", ABRAHAM's "Divine
	// call of"), no predicate of it: "was character of Aaron" would say
	// Aaron is his own. A numbered entry is another of the name
	// (BENJAMIN's "3. Grandson of Benjamin").
	ofSelf := false
	if last := strings.ToLower(words[len(words)-1]); prepositions[last] {
		words = append(words, subject)
		ofSelf = last == "of" && !startsDigit(entry)
	} else if prev := strings.ToLower(words[max(len(words)-2, 0)]); articles[last] && prepositions[prev] && prev != "of" {
		// SLING's "David kills Goliath with a": the subject is a thing.
		words = append(words, strings.ToLower(subject))
	}
	// "Justice of, illustrated in his judgment of the two prostitutes":
	// the subject is what the preposition before the comma leaves out.
	filled := -1 // where the subject was put in
	for i := 0; i < len(words)-1; i++ {
		if w, ok := strings.CutSuffix(words[i], ","); ok && prepositions[strings.ToLower(w)] {
			if conjunctions[strings.ToLower(words[i+1])] && slices.ContainsFunc(words[i+2:], func(x string) bool {
				x, ok := strings.CutSuffix(x, ",")
				return ok && prepositions[strings.ToLower(x)]
			}) {
				// PAUL's "present at, and gives consent to, the stoning
				// of Stephen": two prepositions share the object after
				// the second, which is not the subject ("present at
				// Paul" read before). Left out, as few phrases are so.
				return clause{}, false
			}
			words = slices.Insert(words, i+1, subject+",")
			words[i] = w
			filled = i + 1
			break
		}
	}
	lw := func(i int) string {
		if i >= len(words) {
			return ""
		}
		return strings.ToLower(strings.Trim(words[i], ",;:"))
	}
	first := lw(0)
	g := c.gram
	person := func(from, to int) bool {
		for i := from; i < min(to, len(words)); i++ {
			if prepositions[lw(i)] || conjunctions[lw(i)] {
				return false
			}
			if g.isPerson(lw(i)) {
				return true
			}
		}
		return false
	}
	rest := strings.Join(words[1:], " ")
	// names: the words of a subject of several names ("Esau and Jacob",
	// "Mary, Martha, and Lazarus"), or one.
	lead := g.leadingNames(words)
	names := max(lead, 1)
	// verb: the present verb after them, when the phrase has one.
	verb := g.presentVerb(lw(names), names > 1)
	if lw(1) == "than" && len(own) > 3 && g.isPast(lw(len(words)-1)) {
		// JESUS' "More than five-thousand people fed": a comparison opens
		// a number of people, and the participle after them says what was
		// done to them. Read as a predicate of the subject, it said "Jesus
		// was more than five-thousand people fed" ("More" is a person to
		// WordNet: Sir Thomas More).
		return clause{kind: clauseSentence, text: strings.Join(words[:len(words)-1], " ") + " were " + words[len(words)-1]}, true
	}
	switch {
	case prepositions[first] || openingPrepositions[first] || conjunctions[first] || first == "what" || first == "which" || first == "how":
		// BIRDS' "What species were unclean" is a question Nave's
		// answers with verses, no clause of its subject.
		return clause{}, false
	case lead > 0 && presentTense[lw(names)] != "" && len(words) > names+1,
		articles[first] && len(words) > 3 && titles[words[1]] && presentTense[lw(2)] != "":
		// OPPRESSION's "God is a refuge from", SANCTIFICATION's "The Lord
		// is the Sanctifier", ICONIUM's "Paul is persecuted by the people
		// of": names and their "is" are a sentence of their own ("was God
		// is a refuge" read before). What Nave's says God is stands as it
		// says it; a person's story is told in the past.
		if titles[words[0]] || articles[first] {
			if articles[lw(len(words)-1)] {
				// WAY's "Jesus is the": the subject is what he is.
				words = append(words, subject)
			}
			return clause{kind: clauseSentence, text: strings.Join(words, " ")}, true
		}
		return clause{kind: clauseSentence, text: joinWords(strings.Join(words[:names], " "),
			joinWords(presentTense[lw(names)], g.inPast(strings.Join(words[names+1:], " "))))}, true
	case articles[first]:
		if (person(1, 4) || g.plural(subject) && g.groupNoun(lw(1))) && !ofSelf {
			// PHARISEES' "A sect of the Jews": a group is what a people
			// was, as a person noun is what a person was.
			return clause{kind: clausePredicate, text: "was " + c.lowerFirst(words)}, true
		}
		if !c.nounPhrase(words[1:]) {
			return clause{}, false
		}
		return clause{kind: clauseTopic, text: c.lowerFirst(words)}, true
	case possessives[first]:
		if rest == "" {
			return clause{}, false
		}
		return clause{kind: clauseTopic, text: possessive(subject) + " " + rest}, true
	case g.verbBase(first) != "" && lw(1) != "of":
		return clause{kind: clausePredicate, text: joinWords(g.pastTense(g.verbBase(first)), g.inPast(rest))}, true
	case g.plural(subject) && g.presentVerb(first, true) != "" && (articles[lw(1)] || possessives[lw(1)]):
		// SADDUCEES' "Reject the doctrine of the resurrection": after a
		// plural subject Nave's present verb is its base form, which may
		// spell a noun too ("a reject"); an object opening after it
		// makes it the verb ("Scripture tells of the reject the
		// doctrine" read before).
		return clause{kind: clausePredicate, text: joinWords(g.pastTense(first), g.inPast(rest))}, true
	case g != nil && presentTense[first] != "":
		// DOVE's "Are timid", JONAH's "Is a sign".
		return clause{kind: clausePredicate, text: joinWords(presentTense[first], g.inPast(rest))}, true
	case g.isPast(first) && (!g.isNoun(first) || g.pastForms[first] && (len(words) == 1 || !startsUpper(words[1]))):
		// "Born in Bethlehem", "Forbidden to be used as a title": a
		// participle says what was done to the subject. A regular "-ed"
		// word that is a noun is one ("Hatred often concealed by", "Red
		// Sea divided"); an irregular past form is the verb, whatever rare
		// noun it spells too: "Sent by God to warn the city of Nineveh"
		// (a "sent" is Estonian money), "Found in rocks", "Given to Jesus";
		// but not before a name, which it may begin ("Red Sea divided").
		// "Plotted against by the chief priests", "Cared for by divine
		// providence": a preposition then "by" is a prepositional verb's
		// passive. STEPHEN's "Stoned", a verb whose first sense takes an
		// object and none follows, is passive too.
		if lw(1) == "by" || len(words) > 1 && startsUpper(words[1]) || g.participles[first] ||
			prepositions[lw(1)] && (g.objectOnly(first) || lw(2) == "by") || g.agentFollows(own) ||
			len(own) == 1 && g.firstObject(first) {
			return clause{kind: clausePredicate, text: "was " + joinWords(first, g.inPast(rest))}, true
		}
		return clause{kind: clausePredicate, text: joinWords(first, g.inPast(rest))}, true
	case g.isAdverb(first) && g.isPast(lw(1)) && !g.isNoun(lw(1)) && (lw(2) == "by" || len(words) > 2 && startsUpper(words[2])):
		// "Also called Saul" → "was also called Saul".
		return clause{kind: clausePredicate, text: "was " + c.lowerFirst(words)}, true
	case first == "not" && len(words) > 1:
		// MILLSTONE's "Not to be taken as a pledge".
		return clause{kind: clausePredicate, text: "was " + c.lowerFirst(words)}, true
	case lead > 0 && verb != "":
		// GOLIATH's "David kills Goliath with a" (sling), BETHANY's "Mary,
		// Martha, and Lazarus dwell at": the phrase has its own subject,
		// names, and its verb follows.
		return clause{kind: clauseSentence, text: joinWords(strings.Join(words[:names], " "), joinWords(g.pastTense(verb), g.inPast(strings.Join(words[names+1:], " "))))}, true
	case g.properName(words[0]) && len(words) > names && (len(words) > names+1 && (g.participles[lw(names)] ||
		g.regularBase(lw(names)) != "" && (lw(names+1) == "by" || prepositions[lw(names+1)] && g.firstObject(lw(names)))) ||
		len(words) == names+1 && g.firstObject(lw(names))):
		// ABRAHAM's "Ishmael born to Abraham", "David delivered by" (God),
		// ISAAC's "Esau and Jacob born to", MELITA's "Paul shipwrecked on
		// the coast of": a verb whose first sense takes an object, then a
		// preposition, is passive; "Jesus prayed in" is not. So is such
		// a verb with nothing after it: STEPHEN's "Stephen stoned".
		be := "was "
		if names > 1 || g.plural(words[0]) {
			be = "were "
		}
		if len(words) == names+1 && lw(names) == "called" {
			// MASTER's "Jesus called": what he was called is the subject.
			words = append(words, subject)
		}
		if filled > names {
			// HANNAH's "Samuel born to, dedicated him to God, leaves him at
			// the temple": after the subject put in, the acts that follow
			// are the subject's, done to the phrase's own ("him"); told
			// on, they would be Samuel's. They become the subject's
			// clause: "Samuel was born to Hannah, who dedicated him to God
			// and left him at the temple".
			if acts, ok := g.actsOnIt(words[filled+1:]); ok {
				return clause{kind: clauseSentence, text: joinWords(strings.Join(words[:names], " "),
					be+strings.Join(words[names:filled], " ")+" "+subject+", who "+acts)}, true
			}
		}
		return clause{kind: clauseSentence, text: joinWords(strings.Join(words[:names], " "), be+strings.Join(words[names:], " "))}, true
	case names == 1 && g.properName(words[0]) && len(words) > 1 && g.isPast(lw(1)) && !(len(words) == 2 && beForms[lw(1)]):
		// GATH's "Goliath lived in", ISRAEL's "Saul anointed as king",
		// ESHTAOL's "Samson buried near": a name and its past form, a
		// sentence of its own ("was samson buried near" read before). A
		// verb whose first sense takes an object is passive unless its
		// object follows (ESHTEMOA's "David shared plunder with").
		// COUNSELLOR's "Ahithophel was" says nothing alone.
		be := ""
		if g.firstObject(lw(1)) && !opensObject[lw(2)] && (!g.isNoun(lw(2)) || prepositions[lw(2)]) {
			be = "was "
		}
		return clause{kind: clauseSentence, text: joinWords(words[0], be+strings.Join(words[1:], " "))}, true
	case lead == 1 && len(own) == 3 && prepositions[lw(1)] && lw(1) != "of" && startsUpper(words[2]):
		// MASTER's "Laban to Jacob", INGRATITUDE's too: the subject shown
		// between two people, said of neither ("was laban to Jacob" read
		// before). "Of" makes a role ("Chamberlain of Ahasuerus"), and a
		// capitalized first word may be a common noun.
		return clause{}, false
	case person(0, 1) && g.verbBase(lw(1)) != "":
		// GIDEON's "Angel attests the call to, by miracle": someone else
		// acts, and the subject is no actor of the phrase.
		return clause{}, false
	case lead > 1 && person(0, 1) && !titles[words[0]]:
		// ALLIANCES' "Solomon and Hiram", AFFLICTIONS AND ADVERSITIES'
		// "Paul and Silas in prison": a phrase opening with names and no
		// verb of theirs says nothing of the subject ("was Paul and Silas
		// in prison" read before); Scripture tells of them. One name may
		// be a capitalized first word ("Chamberlain of Ahasuerus"), and a
		// title names the subject ("Lord and Saviour Jesus Christ").
		if !c.nounPhrase(words) {
			return clause{}, false
		}
		return clause{kind: clauseTopic, text: strings.Join(words, " ")}, true
	case (person(0, 1) || first == "one" && lw(1) == "of") && !ofSelf:
		return clause{kind: clausePredicate, text: "was " + c.lowerFirst(words)}, true
	}
	if g.wn.Has(first, wordnet.Adj) && !isStop(first) && !strings.HasSuffix(first, "ing") && prepositions[lw(1)] && lw(1) != "of" {
		// MARY MAGDALENE's "Present at the crucifixion", "Faithful to
		// her": an adjective with its complement says what the subject was.
		return clause{kind: clausePredicate, text: "was " + c.lowerFirst(words)}, true
	}
	if !c.nounPhrase(words) {
		return clause{}, false
	}
	if n := strings.TrimRight(first, "s"); strings.HasSuffix(n, "'") || strings.HasSuffix(n, "’") {
		// "God's Dwelling Place": the possessive is its article.
		return clause{kind: clauseTopic, text: strings.Join(words, " ")}, true
	}
	if lex, ok := firstNounLexFile(g.wn, first); ok && lex == lexNounLocation && len(words) > 2 && words[1] == "of" && !strings.HasSuffix(words[0], ",") && !g.properName(words[0]) &&
		!slices.ContainsFunc(words, func(w string) bool { return strings.TrimRight(w, ",") == subject }) {
		// BETHLEHEM's "Birthplace of Jesus", KEDESH's "Home of Barak": a
		// place noun of another says what the subject, a place, was
		// (not "Place of, in camp and march", GAD's own).
		return clause{kind: clausePredicate, text: "was the " + c.lowerFirst(words)}, true
	}
	if len(words) > 1 && startsUpper(words[1]) {
		// "Holy Spirit given to the apostles": a name stays as it is.
		return clause{kind: clauseTopic, text: "the " + strings.Join(words, " ")}, true
	}
	return clause{kind: clauseTopic, text: "the " + c.lowerFirst(words)}, true
}

// nounPhrase reports whether words, what is left of a phrase no rule above
// read as a predicate, can follow "Scripture tells of the": not a
// sentence ("One day is like one-thousand years", "Twelve apostles return;
// he goes to the desert"), not opening with a function word or an adverb
// ("Should always accompany prayer", "Our common enemy", "Probably
// identical with Jesse", "Derisively challenges the priests of Baal") or a
// cross-reference ("See also"), and with no preposition left hanging
// ("Conspiracy against, cast into the lions' den", "Children of the").
func (c *composition) nounPhrase(words []string) bool {
	if len(words) == 0 || c.gram == nil {
		return len(words) > 0
	}
	lower := func(w string) string { return strings.ToLower(strings.Trim(w, ",;:.")) }
	first := lower(words[0])
	if isStop(first) && !c.gram.wn.Has(first, wordnet.Adj) || first == "see" || c.gram.isAdverb(first) {
		return false
	}
	relative := false
	for i, w := range words {
		l := lower(w)
		// A verb after a relative word is its clause's: "A station where
		// the Israelites were miraculously fed with quails".
		relative = relative || relatives[l]
		switch {
		case strings.ContainsRune(w, ';'), !relative && (presentTense[l] != "" || l == "was" || l == "were"):
			return false
		case (prepositions[l] || articles[l]) && (strings.HasSuffix(w, ",") || i == len(words)-1):
			return false
		}
	}
	return true
}

// actedByParent reports whether a sub-entry's phrase says something of
// its one-word parent rather than of the topic: the parent is a noun
// (JESUS' "PROPHET — Foretold things to come", MIRACLES' "Elijah — Brings
// fire down upon Ahaziah's army") or the actor of the verb the phrase
// opens with ("Paul — Heals a cripple"). Joined as phraseWords joins a
// verb's "Called — Day of Pentecost", they would read "was prophet
// Foretold things to come"; said of the topic alone, "healed a cripple"
// would name the wrong actor. Such a phrase is left out.
func (c *composition) actedByParent(entry string) bool {
	parent, own, ok := strings.Cut(entry, " — ")
	parent = strings.ToLower(strings.TrimSpace(parent))
	if !ok || strings.Contains(own, " — ") || strings.Contains(parent, " ") {
		return false
	}
	g := c.gram
	if g.isNoun(parent) && !g.isPast(parent) {
		return true
	}
	first, _, _ := strings.Cut(strings.TrimSpace(own), " ")
	return g.verbBase(strings.ToLower(first)) != ""
}

// namesInstance reports whether a sub-entry is a lone name (HOLY SPIRIT's
// "INSPIRATION OF — Jephthah", JUDGE's "9. Jephthah"): an instance of its
// heading or list, which says nothing of the topic in a clause of its own
// ("Scripture tells of the jephthah", "Wise Men was Solomon"): a word
// WordNet does not have, or whose commonest sense it writes capitalized
// (properName).
func (c *composition) namesInstance(words []string) bool {
	return len(words) == 1 && c.gram != nil &&
		(len(c.gram.wn.Lookup(strings.ToLower(words[0]))) == 0 || c.gram.properName(words[0]))
}

// phraseWords cleans a Nave's phrase into words: its first part before a
// " -" (Nave's joins two phrases so: "A Jewish rabbi -Becomes a disciple"),
// "Naomi' s" mended, words in capitals (cross-references to topics, "FEAST
// OF WEEKS") in title case, trailing punctuation dropped.
func phraseWords(entry string) []string {
	// A sub-entry's sense is its parents' phrases and its own, joined by
	// " — " (corpus.NaveTopic.Sense). A parent of one word ("Called")
	// leads its child's phrase: "Called — Day of Pentecost" is "Called Day
	// of Pentecost". A longer parent is a heading the child's phrase
	// stands without: "King of Israel — A shepherd" says "A shepherd" of
	// David. Deeper nesting is an outline of a narrative ("History of —
	// Facts before the birth of — An angel appears to Joseph"), whose
	// lines are not things said of the subject.
	parts := strings.Split(entry, " — ")
	if len(parts) > 2 {
		return nil
	}
	if len(parts) > 1 {
		parent, own := strings.TrimSpace(parts[len(parts)-2]), parts[len(parts)-1]
		if strings.Contains(parent, " ") {
			entry = own
		} else {
			entry = parent + " " + own
		}
	}
	entry, _, _ = strings.Cut(entry, " -")
	// " ; with" (and runs of " ;") close a phrase with Nave's pointers to
	// compare other passages; a semicolon of the phrase's own has no space
	// before it.
	entry, _, _ = strings.Cut(entry, " ;")
	// Nave's quotes the KJV's wording in places ("cities of the plain,");
	// the composer's quotations are its own, checked against the verses.
	entry = strings.NewReplacer(`"`, "", "“", "", "”", "").Replace(entry)
	entry = strings.ReplaceAll(entry, "' s ", "'s ")
	entry = strings.ReplaceAll(entry, "’ s ", "’s ")
	entry = strings.TrimRight(strings.TrimSpace(entry), ",;:.-— ")
	words := strings.Fields(entry)
	// Nave's numbers the senses of a name ("1. An ancestor of Jesus"): the
	// number is no part of the phrase.
	for len(words) > 0 && strings.IndexFunc(words[0], unicode.IsLetter) < 0 {
		words = words[1:]
	}
	for i, w := range words {
		words[i] = titleCaps(w, i == 0)
	}
	if len(words) == 0 || strings.ContainsAny(strings.Join(words, " "), ".?!") {
		// A phrase of its own sentences would break the composed one.
		return nil
	}
	return words
}

// allCaps reports whether s has capitals and no lower-case letter
// ("WEEKS", "OF ENEMIES").
func allCaps(s string) bool {
	return strings.IndexFunc(s, unicode.IsLower) < 0 && strings.IndexFunc(s, unicode.IsUpper) >= 0
}

// titleCaps writes a word in capitals ("WEEKS") in title case ("Weeks"),
// small words ("OF") in lower case unless first.
func titleCaps(w string, first bool) string {
	if rest, ok := strings.CutPrefix(w, "("); ok {
		// Nave's other name: "MELITA (MALTA)" is "Melita (Malta)".
		return "(" + titleCaps(rest, true)
	}
	if !allCaps(w) || utf8.RuneCountInString(w) < 2 {
		return w
	}
	l := strings.ToLower(w)
	if !first && (articles[l] || prepositions[l] || conjunctions[l]) {
		return l
	}
	r, n := utf8.DecodeRuneInString(l)
	return string(unicode.ToUpper(r)) + l[n:]
}

// topicSubject is a Nave's topic title as the subject of a sentence:
// "MELCHIZEDEK" → "Melchizedek", "LORD'S SUPPER" → "Lord's Supper",
// "JESUS, THE CHRIST" → "Jesus".
func topicSubject(topic string) string {
	// "MELITA (MALTA)", "JUDAS (JUDE)": the other name is Nave's note.
	topic, _, _ = strings.Cut(topic, "(")
	topic, _, _ = strings.Cut(topic, ",")
	words := strings.Fields(topic)
	for i, w := range words {
		words[i] = titleCaps(w, i == 0)
	}
	return strings.Join(words, " ")
}

// topicLabel is a Nave's topic title as a label, the whole title in title
// case: "AGE, OLD" → "Age, Old" (topicSubject's "Age" would be another
// topic), "SICK, THE" → "Sick".
func topicLabel(topic string) string {
	topic = strings.TrimSuffix(topic, ", THE")
	words := strings.Fields(topic)
	for i, w := range words {
		words[i] = titleCaps(w, i == 0)
	}
	return strings.Join(words, " ")
}

// lowerFirst joins words with the first in lower case unless it is a name:
// Nave's capitalises every phrase's first word, so a capital tells
// nothing; the word counts as a name when the candidates' KJV text has it
// only capitalised, or it is a name of God (titles).
func (c *composition) lowerFirst(words []string) string {
	w := words[0]
	if titles[w] || !c.lowerInCandidates(w) && c.capitalInCandidates(w) {
		return strings.Join(words, " ")
	}
	return strings.Join(append([]string{strings.ToLower(w)}, words[1:]...), " ")
}

func (c *composition) lowerInCandidates(w string) bool {
	lw := strings.ToLower(w)
	for _, cand := range c.q.Candidates {
		for _, f := range strings.Fields(cand.Verse.Text) {
			if strings.Trim(f, ",;:.?!()’'") == lw {
				return true
			}
		}
	}
	return false
}

func (c *composition) capitalInCandidates(w string) bool {
	for _, cand := range c.q.Candidates {
		for _, f := range strings.Fields(cand.Verse.Text) {
			if strings.Trim(f, ",;:.?!()’'") == w {
				return true
			}
		}
	}
	return false
}

func startsUpper(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

func joinWords(head, rest string) string {
	if rest == "" {
		return head
	}
	return head + " " + rest
}

// inPast puts the rest of a phrase whose first verb was put in the past
// in the past too: Nave's narrates in the present ("Escapes to the
// wilderness, where he is miraculously fed by ravens", "Returns and sends
// a message to Ahab"). A verb is changed only where a clause goes on
// (after "and", "but", "then", or a pronoun) and only when WordNet has
// the word as a verb and not as a noun: "offers sacrifices and gifts"
// keeps its gifts.
func (g *grammar) inPast(rest string) string {
	if g == nil || rest == "" {
		return rest
	}
	words := strings.Fields(rest)
	for i := 1; i < len(words); i++ {
		prev := strings.ToLower(words[i-1])
		w := words[i]
		if w != strings.ToLower(w) {
			continue
		}
		// "…; the merchant, Lydia, from Thyatira, is converted and
		// immersed", "Pharaoh and his army are destroyed": "is" before a
		// past form is the story's passive wherever it stands.
		if (w == "is" || w == "are") && i+1 < len(words) && g.isPast(strings.ToLower(words[i+1])) {
			words[i] = presentTense[w]
			continue
		}
		// A semicolon ends a clause as "and" does: "Visited Samothracia
		// and Neapolis; comes to Philippi".
		if !clauseGoesOn[prev] && !strings.HasSuffix(prev, ";") {
			continue
		}
		// After "and", "is" joins two things ("bread and is") unless a
		// past form follows: "and is killed by David" goes on the story.
		passive := i+1 < len(words) && g.isPast(strings.ToLower(words[i+1]))
		switch {
		case w == "is" && (prev != "and" || passive):
			words[i] = "was"
		case w == "are" && (prev != "and" || passive):
			words[i] = "were"
		default:
			// A word that is a noun too is a verb when its object
			// follows: "and saves his family", not "and gifts".
			// A name after it is its object too: "and raises Lazarus from
			// the dead".
			object := i+1 < len(words) && (opensObject[strings.ToLower(words[i+1])] || startsUpper(words[i+1]) && !titles[words[i+1]])
			// After a semicolon or a subject pronoun the clause's verb
			// comes next whatever noun it spells too: "; finds refuge",
			// "he proceeds to Jerusalem".
			verbNext := strings.HasSuffix(prev, ";") || subjectPronouns[prev]
			if base := g.verbBase(w); base != "" && (object || verbNext || !g.isNoun(base) && !g.isNoun(w)) {
				words[i] = g.pastTense(base)
			}
		}
	}
	return strings.Join(words, " ")
}

// agentFollows reports whether the first clause of a phrase opening with
// a past form (up to its first comma or semicolon, or an "and" before
// another than a past form) names who did it, "by" and a name or a
// determiner: ISAAC's "Offered in sacrifice by his father", MOSES'
// "Discovered and adopted by the daughter of Pharaoh" are passive. "By
// means of" and "by way of" name no one.
func (g *grammar) agentFollows(words []string) bool {
	if len(words) == 0 || beForms[strings.ToLower(words[0])] {
		// FEASTS' "Were presided over by a master of ceremonies" says
		// its "were" itself.
		return false
	}
	for i, w := range words[:len(words)-1] {
		if strings.EqualFold(w, "and") && !g.isPast(strings.ToLower(words[i+1])) {
			// GOLIATH's "Defied armies of Israel and is killed by David":
			// the agent is the next clause's.
			return false
		}
		if i > 0 && strings.EqualFold(w, "by") {
			next := words[i+1]
			l := strings.ToLower(strings.Trim(next, ",;:"))
			return l != "means" && l != "way" && (startsUpper(next) || articles[l] || opensObject[l])
		}
		if strings.ContainsAny(w, ",;") {
			return false
		}
	}
	return false
}

// actsOnIt reads words, the comma-separated parts of a phrase after its
// subject, as acts done to another ("dedicated him to God, leaves him at
// the temple"): every part opens with a verb, past or present, and one
// holds an object pronoun. It returns them in the past, the last joined
// by "and" ("dedicated him to God and left him at the temple").
func (g *grammar) actsOnIt(words []string) (string, bool) {
	var parts [][]string
	part := []string{}
	for _, w := range words {
		t, comma := strings.CutSuffix(w, ",")
		part = append(part, t)
		if comma {
			parts, part = append(parts, part), []string{}
		}
	}
	if len(part) > 0 {
		parts = append(parts, part)
	}
	object := false
	var out []string
	for _, p := range parts {
		first := strings.ToLower(p[0])
		switch {
		case g.isPast(first):
		case g.verbBase(first) != "":
			p[0] = g.pastTense(g.verbBase(first))
		default:
			return "", false
		}
		object = object || slices.ContainsFunc(p[1:], func(w string) bool { return objectPronouns[strings.ToLower(w)] })
		out = append(out, strings.Join(p, " "))
	}
	if !object || len(out) == 0 {
		return "", false
	}
	if len(out) == 1 {
		return out[0], true
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1], true
}

// objectPronouns stand for another than the phrase's subject.
var objectPronouns = map[string]bool{"him": true, "her": true, "them": true}

// subjectPronouns open a clause whose verb follows.
var subjectPronouns = map[string]bool{"he": true, "she": true, "it": true, "they": true, "who": true}

// clauseGoesOn are the words after which a narrating phrase's next verb
// stands: a conjunction or a subject pronoun.
var clauseGoesOn = func() map[string]bool {
	m := map[string]bool{"and": true, "but": true, "then": true}
	for w := range subjectPronouns {
		m[w] = true
	}
	return m
}()

// opensObject are the determiners and object pronouns that open a verb's
// object.
var opensObject = map[string]bool{"his": true, "her": true, "their": true, "its": true, "the": true, "a": true, "an": true, "him": true, "them": true}

// possessive is "Ruth's", "Moses'".
func possessive(name string) string {
	if strings.HasSuffix(name, "s") {
		return name + "'"
	}
	return name + "'s"
}

// wholePhrase reports whether a theme's entry is a phrase of its own that
// a sentence can carry: two words or more, one piece (no comma, no parent
// phrase), not left open by a last preposition or conjunction ("Kings and
// other rulers as").
func wholePhrase(entry string) bool {
	words := strings.Fields(entry)
	if len(words) < 2 || strings.ContainsAny(entry, ",;—") {
		return false
	}
	last := strings.ToLower(strings.Trim(words[len(words)-1], ".:"))
	return !prepositions[last] && !conjunctions[last]
}

// startsDigit reports whether s opens with a digit: Nave's numbers the
// bearers of one name ("3. Grandson of Benjamin").
func startsDigit(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && isASCIIDigit(rune(s[0]))
}
