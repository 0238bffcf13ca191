package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/selahdev/selah/corpus"
)

// Questions asking why: "why did god flood the earth", "how come king
// uzziah got leprosy", "what was the reason rahab hid the spies". They ask
// for the reason the text gives for an event, which the verses telling the
// event seldom hold: Numbers 20:12 ("Because ye believed me not") follows
// the smiting of the rock, 1 John 3:12 ("wherefore slew he him? Because
// his own works were evil") is a thousand pages from Genesis 4. The event
// is what the search reads; the verse answering is one near the event's
// verses, or found by the event's words, that gives a reason: it holds
// one of English's closed class of causal and purpose conjunctions
// (because, for, wherefore, therefore, lest, forasmuch as, so that, that
// … might) in the KJV's wording or the WEB's. The frame, too, is a closed
// class (why, how come, the reason), as quote.go's and exists.go's are.

var (
	// reasonFrames: "why did X", "why was X", "how come X", "what was
	// the reason (why) X", "for what reason did X". A why-question in the
	// past tense asks about an event, whose reason the text tells beside
	// it; one in the present ("why do we pray", "why is pride a sin")
	// asks about a teaching, which the themes answer (answer_route.go):
	// on the tuning sets no present-tense question gained from a reason
	// verse, and several lost (DEVELOPERS.md, forty-fifth round).
	reasonFrames = []*regexp.Regexp{
		regexp.MustCompile(`^why\s+(?:exactly\s+|really\s+|on earth\s+)?(?:did|was|were|had|would|could|didn'?t|wasn'?t|weren'?t|hadn'?t|wouldn'?t|couldn'?t)\s+(.+)$`),
		regexp.MustCompile(`^how\s+come\s+(.+)$`),
		regexp.MustCompile(`^(?:what)\s+(?:was|were)\s+the\s+(?:main\s+|real\s+)?(?:reasons?|cause)\s+(?:why\s+|that\s+|for\s+|behind\s+|of\s+)?(.+)$`),
		regexp.MustCompile(`^for\s+what\s+(?:reason|purpose|cause)\s+(?:did|was|were|had|would)\s+(.+)$`),
	}
	// reasonClose is a close naming the Bible: "X in the bible",
	// "according to the bible".
	reasonClose = regexp.MustCompile(`\s+(?:in|from|according\s+to)\s+(?:the\s+bible|scripture|the\s+scriptures)$`)
	// causeReason are the conjunctions that give a cause in so many
	// words, and purposeReason those that give a purpose, read in a
	// verse's wording (KJV or WEB, lower case, punctuation gone).
	causeReason   = regexp.MustCompile(` (?:` + causeWords + `) `)
	purposeReason = regexp.MustCompile(` (?:in order|` + purposeWords + `) `)
	// weakReason is "for" opening a clause in the KJV (the WEB writes
	// "for" and "because" alike; as a preposition it opens none), and a
	// consequence drawn ("therefore", "wherefore", "so that"): the
	// reason is in the verse, or the one before.
	weakReason = regexp.MustCompile(weakWords)
	// reasonStartsKJV find where, in the KJV text, the reason opens: a
	// cause before a purpose before a clause opening with "for" or a
	// consequence ("And wherefore slew he him? Because his own works were
	// evil": the first "wherefore" asks).
	reasonStartsKJV = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(?:` + causeWords + `)\b`),
		regexp.MustCompile(`(?i)\b(?:` + purposeWords + `)\b`),
		weakReason,
	}
)

// The conjunctions of cause and purpose, and the weak ones (a clause
// opening with "for", a consequence), the groups marking the word itself.
const (
	causeWords   = `because|forasmuch|inasmuch|for this (?:cause|reason)|seeing that`
	purposeWords = `lest|to the (?:intent|end) that|that (?:[a-z]+ ){1,3}(?:might|may|mightest|mayest)`
	weakWords    = `(?i)(?:^|[;:,.?!(]\s*)(for)\s|\b(therefore|wherefore|so that)\b`
)

// reasonQuestion reads question as one asking why and returns the event it
// asks the reason for, lower-cased, without the frame; ok is false for any
// other question. A sentence of context may come first.
func reasonQuestion(question string) (string, bool) {
	return framedSentence(question, reasonFrame)
}

func reasonFrame(s string) (string, bool) {
	for _, f := range reasonFrames {
		if m := f.FindStringSubmatch(s); m != nil {
			event := strings.TrimFunc(m[1], func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
			event = reasonClose.ReplaceAllString(event, "")
			if len(strings.Fields(event)) >= 2 {
				return event, true
			}
		}
	}
	return "", false
}

// ReasonFact is the verse giving the reason a why-question asks for.
type ReasonFact struct {
	Verses []corpus.VerseID
	// From is where, in the first verse's KJV text, the reason opens (its
	// conjunction), for a quotation of a long verse to start there.
	From int
}

// reasonStrength is how plainly a verse gives a reason: 1 with a causal
// conjunction in its KJV or WEB wording, purposeStrength with one of
// purpose, weakReasonStrength with a clause opening with "for" or a
// consequence drawn in the KJV, else 0.
func (r *Retriever) reasonStrength(id corpus.VerseID) float64 {
	d, ok := r.lex.docIndex[id]
	if !ok {
		return 0
	}
	words := " " + strings.ReplaceAll(r.phrase.lines[d], "\n", " ") + " "
	switch {
	case causeReason.MatchString(words):
		return 1
	case purposeReason.MatchString(words):
		return purposeStrength
	case weakReason.MatchString(r.verses[d].Text):
		return weakReasonStrength
	}
	return 0
}

const (
	purposeStrength    = 0.8
	weakReasonStrength = 0.6
	// eventRankScale is the search rank at which a verse's nearness to
	// the event counts half (besideEvent): the reason is told beside the
	// event, and the event's first verses are nearest it.
	eventRankScale = 10
	// eventSearched is how many of the event's search hits are read, and
	// eventAnchors how many of them (with the verses the question
	// answered as any other cites) have the verses within eventWindow of
	// them read too: the reason is told beside the event.
	eventSearched = 30
	eventAnchors  = 5
	eventWindow   = 6
	// minReasonEvidence is the share of the event's words a verse must
	// hold to be taken as giving its reason.
	minReasonEvidence = 0.4
)

// reasons are the verses that may give the reason for event, best first:
// of the verses told beside the event (besideEvent), those giving a
// reason and holding enough of the event's words.
func (a *Answerer) reasons(ctx context.Context, event string, cited []corpus.VerseID) ([]reasonCandidate, error) {
	pool, nearness, err := a.besideEvent(ctx, event, cited)
	if err != nil {
		return nil, err
	}
	rv := a.r.newRelevance(event)
	var out []reasonCandidate
	for _, id := range pool {
		c := reasonCandidate{id: id, evidence: rv.evidence(id), strength: a.r.reasonStrength(id), near: nearness[id]}
		if c.evidence >= minReasonEvidence && c.strength > 0 {
			out = append(out, c)
		}
	}
	// Best first; of equal scores, the search's order.
	slices.SortStableFunc(out, func(x, y reasonCandidate) int { return cmp.Compare(y.score(), x.score()) })
	return out, nil
}

// besideEvent returns the verses told at or beside an event, in the order
// found, and how near the event each is told: the event's search hits, by
// their rank, and the verses within eventWindow of the first of them and
// of cited (the verses the question answered as any other cites, which
// count as the first), by their distance. What a why- or when-question
// asks is told beside the event, seldom in the verses holding its words.
func (a *Answerer) besideEvent(ctx context.Context, event string, cited []corpus.VerseID) ([]corpus.VerseID, map[corpus.VerseID]float64, error) {
	res, err := a.r.Search(ctx, event, eventSearched)
	if err != nil {
		return nil, nil, fmt.Errorf("pipeline: answer: %w", err)
	}
	nearness := map[corpus.VerseID]float64{}
	var pool []corpus.VerseID
	add := func(id corpus.VerseID, n float64) {
		if _, ok := a.r.Verse(id); !ok {
			return
		}
		if _, ok := nearness[id]; !ok {
			pool = append(pool, id)
		}
		nearness[id] = max(nearness[id], n)
	}
	type anchor struct {
		id corpus.VerseID
		n  float64
	}
	var anchors []anchor
	for _, id := range cited {
		add(id, 1)
		anchors = append(anchors, anchor{id, 1})
	}
	for i, h := range res.Hits {
		n := 1 / (1 + float64(i)/eventRankScale)
		add(h.Verse.ID, n)
		if i < eventAnchors {
			anchors = append(anchors, anchor{h.Verse.ID, n})
		}
	}
	for _, an := range anchors {
		for k := 1; k <= eventWindow; k++ {
			decay := an.n * (1 - float64(k)/(eventWindow+1))
			for _, id := range []corpus.VerseID{an.id - corpus.VerseID(k), an.id + corpus.VerseID(k)} {
				if sameChapter(id, an.id) {
					add(id, decay)
				}
			}
		}
	}
	return pool, nearness, nil
}

// reasonCandidate is a verse that may give the reason for an event.
type reasonCandidate struct {
	id corpus.VerseID
	// evidence is the share of the event's words it holds, strength how
	// plainly it gives a reason (reasonStrength), near how near the
	// event it is told.
	evidence, strength, near float64
}

// score weighs a reason's evidence by its nearness at half: a verse far
// from the event's first verses that holds its words and gives a reason
// (1 John 3:12 for Cain) is what the question asks as much as one beside
// them (DEVELOPERS.md, forty-fifth round).
func (c reasonCandidate) score() float64 {
	return c.evidence * c.strength * (0.5 + 0.5*c.near)
}

// reasonFor finds the verse giving the reason for event (reasons).
func (a *Answerer) reasonFor(ctx context.Context, event string, cited []corpus.VerseID) (ReasonFact, bool, error) {
	cs, err := a.reasons(ctx, event, cited)
	if err != nil || len(cs) == 0 {
		return ReasonFact{}, false, err
	}
	best := cs[0].id
	v, _ := a.r.Verse(best)
	f := ReasonFact{Verses: []corpus.VerseID{best}}
	for _, re := range reasonStartsKJV {
		if loc := re.FindStringSubmatchIndex(v.Text); loc != nil {
			// The conjunction itself, not the clause mark before it.
			f.From = loc[0]
			for i := 2; i < len(loc); i += 2 {
				if loc[i] >= 0 {
					f.From = loc[i]
				}
			}
			break
		}
	}
	return f, true, nil
}

// reason answers a why-question from the verse giving the reason; ok is
// false when no verse near the event gives one (besideAnswer).
func (a *Answerer) reason(ctx context.Context, question, event string, maxRefs int, opts AnswerOptions) (Answer, bool, error) {
	inner := opts
	inner.unreasoned = true
	return a.besideAnswer(ctx, question, maxRefs, opts, inner, func(near []corpus.VerseID) (Question, bool, error) {
		f, ok, err := a.reasonFor(ctx, event, near)
		if err != nil || !ok {
			return Question{}, false, err
		}
		return Question{Text: event, Reason: &f, Candidates: a.r.keyCandidates(f.Verses)}, true, nil
	})
}

// besideAnswer answers a question about an event from a verse told beside
// it (a why-question's reason, a when-question's time): the question is
// first answered as any other (with inner, which keeps it from coming
// back here), and one declined so stays declined; find, given the verses
// that answer cites, returns the question to write, its first candidates
// the verses found, or false when none is. The references it has room
// for beyond them are those the question answered as any other cites.
func (a *Answerer) besideAnswer(ctx context.Context, question string, maxRefs int, opts, inner AnswerOptions, find func(near []corpus.VerseID) (Question, bool, error)) (Answer, bool, error) {
	inner.Extractive = true
	more, err := a.Answer(ctx, question, maxRefs, inner)
	if err != nil {
		return Answer{}, false, err
	}
	if more.NoPassage {
		return more, true, nil
	}
	var near []corpus.VerseID
	for _, ref := range more.References {
		near = append(near, ref.VerseIDs()...)
	}
	q, ok, err := find(near)
	if err != nil || !ok {
		return Answer{}, false, err
	}
	for _, id := range near {
		q.Candidates = a.r.keyCandidate(q.Candidates, id)
	}
	q.Asked, q.MaxRefs = question, maxRefs
	// The theme gate weighed the question as any other: its sample stays
	// the evaluation's (FitThemeGate), as the decline it decided does.
	ans, err := a.write(ctx, q, Answer{gate: more.gate, themes: more.themes}, opts.Extractive)
	return ans, err == nil, err
}

// reasonSentences say where a reason is given and quote the verse:
// "Scripture gives a reason in 1 John 3:12. The verse reads: "…"
// (1 John 3:12)." A long verse is quoted from its conjunction. The
// summary quotes the reason's clause alone. Nil when the verse cannot be
// cited.
func (c *composition) reasonSentences() (own []string, summary string) {
	f := c.q.Reason
	return c.clauseSentences(f.Verses, f.From, "Scripture gives a reason in %s.")
}

// clauseSentences say, in lead's words, which verses tell what a question
// asks, and quote them, a long verse from from (the byte in the first
// verse's KJV text where the clause asked about opens); the summary is
// lead quoting that clause alone. Nil when the verses cannot be cited.
func (c *composition) clauseSentences(verses []corpus.VerseID, from int, lead string) (own []string, summary string) {
	if !c.citeWhole(verses) {
		return nil, ""
	}
	ref := spanReference(verses)
	text := c.spanText(verses)
	opened := text
	if from > 0 && from < len(text) {
		opened = "…" + text[from:]
	}
	if utf8.RuneCountInString(text) > maxQuoteRunes {
		text = opened
	}
	// The clause runs to the next clause mark after its opening word, a
	// sentence's end kept (a clause cut short ends in an ellipsis).
	clause := opened
	start := min(len(opened), len("…")+1)
	if i := strings.IndexAny(opened[start:], ";:.?!"); i >= 0 {
		end := start + i
		if strings.ContainsRune(".?!", rune(opened[end])) {
			end++
		}
		clause = opened[:end]
	}
	lead = fmt.Sprintf(lead, ref)
	own = []string{lead, fmt.Sprintf("The verse reads: \"%s\" (%s).", quotation(text, maxQuoteRunes, cutQuoteRunes, minCutRunes), ref)}
	summary = fmt.Sprintf("%s: \"%s\".", strings.TrimSuffix(lead, "."), quotation(clause, maxQuoteRunes, cutQuoteRunes, minCutRunes))
	return own, summary
}
