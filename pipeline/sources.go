package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/topics"
	"github.com/selahdev/selah/pipeline/wordvec"
)

// The topic router as a source of answers: a question naming a Nave's
// topic ("Who was Melchizedek?") reaches the verses Nave's lists under it,
// which join the candidates, and the sub-entries they are listed under
// become the composer's sentences.
const (
	// themeReach is how many of the verses a question reaches through a
	// theme an answer orders by the question before keeping
	// maxRoutedVerses of them (Answerer.theme): most themes list fewer,
	// GOD and JESUS, THE CHRIST more.
	themeReach = 1000
	// maxRoutedVerses is how many routed verses an answer considers.
	maxRoutedVerses = 24
	// minEvidence is the evidence (relevance.go) a candidate needs to be
	// quoted beyond the first, or to prove a question asking for a number
	// answered; relevanceDepth is how many candidates that looks at.
	minEvidence    = 0.3
	relevanceDepth = 5
	// hubsPerQuestion is how many matching curated hubs offer their
	// summaries to the generators.
	hubsPerQuestion = 2
)

// answerable reports whether the question has a passage that speaks to
// it: the search result is relevant (its calibrated confidence is not
// weak, relevance.go) or the router reached a topic the question names.
//
// A question asking for a count or a year ("how many", "how old", "what
// year") is answered only when a relevant hit states a number: the KJV
// spells its numbers out, and a passage without one does not answer it
// ("How many books are in the Bible?" finds "of making many books there is
// no end").
func answerable(question string, relevant bool, cands []Candidate, routed []Routed) bool {
	if !relevant && !namesTopic(routed) {
		return false
	}
	if asksQuantity(question) {
		for i := range min(len(cands), relevanceDepth) {
			if cands[i].Evidence >= minEvidence && holdsNumber(cands[i].Verse.Text) {
				return true
			}
		}
		return false
	}
	return true
}

// asksParticular reports whether the question asks about a particular
// person or event by its grammar: it opens with the pronoun that asks
// for a person ("who", "whom", "whose"), asks "which" or "what" of a noun
// WordNet files as a person ("which prophet went up …"), or asks what
// happened. Such a question is answered by verses that name people and
// tell what came to pass.
func asksParticular(q string, g *grammar) bool {
	w := questionWords(q)
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "who", "whom", "whose":
		return true
	case "which", "what":
		if len(w) > 1 && (g.isPerson(w[1]) || w[0] == "what" && w[1] == "happened") {
			return true
		}
	}
	return false
}

// questionWords are a question's words in lower case, punctuation dropped.
func questionWords(q string) []string { return questionFields(q, false) }

// questionFields are a question's words in lower case, punctuation
// dropped, numbers kept as words when digits is set ("for 3 years").
func questionFields(q string, digits bool) []string {
	return typedFields(strings.ToLower(q), digits)
}

// typedFields are questionFields in the case they were typed.
func typedFields(q string, digits bool) []string {
	// A phone's keyboard writes the apostrophe curly ("Moses’ brother").
	q = strings.ReplaceAll(q, "’", "'")
	return strings.FieldsFunc(q, func(r rune) bool {
		return !unicode.IsLetter(r) && r != '\'' && !(digits && unicode.IsDigit(r))
	})
}

// asksQuantity reports whether the question asks for a count, an age or
// a year.
func asksQuantity(q string) bool {
	w := questionWords(q)
	for i := 0; i+1 < len(w); i++ {
		switch {
		case w[i] == "how" && (w[i+1] == "many" || w[i+1] == "old"),
			w[i] == "what" && w[i+1] == "year":
			return true
		}
	}
	return false
}

// cardinals are English number words as the KJV writes numbers; "one",
// "first" and "second" are left out, being as often no number at all
// ("every one", "at the first").
var cardinals = map[string]bool{
	"two": true, "three": true, "four": true, "five": true, "six": true, "seven": true,
	"eight": true, "nine": true, "ten": true, "eleven": true, "twelve": true, "thirteen": true,
	"fourteen": true, "fifteen": true, "sixteen": true, "seventeen": true, "eighteen": true,
	"nineteen": true, "twenty": true, "thirty": true, "forty": true, "fifty": true, "sixty": true,
	"seventy": true, "eighty": true, "ninety": true, "hundred": true, "thousand": true, "score": true,
	"third": true, "fourth": true, "fifth": true, "sixth": true, "seventh": true,
}

// holdsNumber reports whether text states a number.
func holdsNumber(text string) bool {
	for _, w := range questionWords(text) {
		if cardinals[w] {
			return true
		}
	}
	return strings.ContainsAny(text, "0123456789")
}

// firstWhere moves the hits keep holds before the others, each group in
// its order: the words of Jesus for a question asking what he said, the
// verses stating a number for one asking a count.
func firstWhere(hits []Hit, keep func(corpus.Verse) bool) []Hit {
	out := slices.Clone(hits)
	slices.SortStableFunc(out, func(a, b Hit) int {
		return cmp.Compare(b2i(!keep(a.Verse)), b2i(!keep(b.Verse)))
	})
	return out
}

// statesNumber reports whether the verse states a number (holdsNumber).
func statesNumber(v corpus.Verse) bool { return holdsNumber(v.Text) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// facts groups the routed verses by topic and sub-entry. A topic's entries
// stay together, the topics in the router's order; within a topic the
// entries go by the router's score, then by how much of the question their
// verses hold (relevance.go): Nave's lists a topic's entries in its own
// order, and the router often scores them alike (every entry of PENTECOST
// matches "What happened at Pentecost?" by the name alone), when the entry
// whose verses speak of the question's words is the one it asks about.
func facts(routed []Routed, rv *relevance) []Fact {
	var out []Fact
	at := map[[2]string]int{}
	for _, r := range routed {
		if r.Key {
			// A key passage is no entry of Nave's: it states nothing.
			continue
		}
		k := [2]string{r.Topic, r.Entry}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, Fact{Topic: r.Topic, Entry: r.Entry, Score: r.Score})
		}
		if !slices.Contains(out[i].Verses, r.Verse) {
			out[i].Verses = append(out[i].Verses, r.Verse)
		}
	}
	// A topic's entries stay together, the topics in order of their best.
	first := map[string]int{}
	for i, f := range out {
		if _, ok := first[f.Topic]; !ok {
			first[f.Topic] = i
		}
	}
	ev := make(map[*Fact]float64, len(out))
	for i := range out {
		for _, id := range out[i].Verses {
			ev[&out[i]] = max(ev[&out[i]], rv.evidence(id))
		}
	}
	type ranked struct {
		f  Fact
		ev float64
	}
	rs := make([]ranked, len(out))
	for i := range out {
		rs[i] = ranked{out[i], ev[&out[i]]}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(first[a.f.Topic], first[b.f.Topic]), cmp.Compare(b.f.Score, a.f.Score), cmp.Compare(b.ev, a.ev))
	})
	// A name several people bore is answered about one of them, the first
	// (the one the question says more of, or Scripture does): "Naaman was
	// son of Benjamin, of Bela and of Ehud" joins three men.
	bearer := map[string]string{}
	out = out[:0]
	for _, x := range rs {
		b := bearerOf(x.f.Entry)
		if first, ok := bearer[x.f.Topic]; !ok {
			bearer[x.f.Topic] = b
		} else if b != "" && first != "" && b != first {
			continue
		}
		out = append(out, x.f)
	}
	return out
}

// hubFacts are the curated topic hubs matching question, best first:
// editorial summaries for the generators. Their verses are not recalled
// as candidates (retrieval and the router find passages); a hub's summary
// is used only when one of its verses is already a candidate.
func hubFacts(question string) []HubFact {
	hubs := topics.Match(question, nil, hubsPerQuestion)
	out := make([]HubFact, len(hubs))
	for i, h := range hubs {
		out[i] = HubFact{Title: h.Title, Summary: h.Summary, Verses: h.VerseIDs(), Nave: h.Nave}
	}
	return out
}

// narrower reports whether title names one of topics more narrowly: its
// words hold all of the topic's and more (LORD'S PRAYER of PRAYER).
func narrower(title string, topics []string) bool {
	words := strings.Fields(title)
	return slices.ContainsFunc(topics, func(t string) bool {
		tw := strings.Fields(t)
		if len(tw) >= len(words) {
			return false
		}
		for _, w := range tw {
			if !slices.Contains(words, w) {
				return false
			}
		}
		return true
	})
}

// withNeighbours offers, as context candidates, the verses that finish the
// sentences the candidates are part of: the verse before each, and the
// verses after one that does not end its sentence or asks what the
// question asks, up to maxSpanVerses in all. A cited passage is then
// cited whole (Galatians 5:22-23), and a question with its reply
// (Candidate.Answered): a user's question finds the verse asking it in
// the same words ("How many times should I forgive my brother?": Matthew
// 18:21), and the answer is the verse after (18:22, "Until seventy times
// seven"). A verse asking something else (Ruth 1:19, "Is this Naomi?",
// cited for Nave's "went to Bethlehem") is cited as it stands: its reply
// answers nothing the asker asked.
func (a *Answerer) withNeighbours(ctx context.Context, cands []Candidate, rv *relevance) ([]Candidate, error) {
	have := make(map[corpus.VerseID]corpus.Verse, len(cands))
	for _, c := range cands {
		have[c.Verse.ID] = c.Verse
	}
	want := func(id corpus.VerseID, need []corpus.VerseID) []corpus.VerseID {
		if _, ok := have[id]; ok || !id.Valid() || slices.Contains(need, id) {
			return need
		}
		return append(need, id)
	}
	var need []corpus.VerseID
	for _, c := range cands {
		need = want(c.Verse.ID-1, need)
	}
	// Forward, a verse at a time: whether to go on depends on the text.
	frontier := make([]corpus.VerseID, 0, len(cands))
	reply := map[corpus.VerseID]bool{} // wanted only as a question's reply
	// A verse asking what the question asks, and whether a verse opens as
	// a reply, each read once: the fetch and the marking below ask both.
	asksAsked := func(v corpus.Verse) bool { return asksQuestion(v.Text) && rv.evidence(v.ID) >= minEvidence }
	replied := map[corpus.VerseID]bool{}
	replies := func(v corpus.Verse) bool {
		r, ok := replied[v.ID]
		if !ok {
			r = a.replies(v.Text)
			replied[v.ID] = r
		}
		return r
	}
	for _, c := range cands {
		frontier = append(frontier, c.Verse.ID)
	}
	for step := 1; step < maxSpanVerses; step++ {
		for _, id := range frontier {
			v, ok := have[id]
			switch {
			case ok && !endsSentence(v.Text):
				need = want(id+1, need)
			case ok && asksAsked(v):
				// A question the asker's: offered only when it replies
				// (below).
				if more := want(id+1, need); len(more) > len(need) {
					need, reply[id+1] = more, true
				}
			}
		}
		if len(need) == 0 {
			break
		}
		verses, err := a.st.VersesByID(ctx, need)
		if err != nil {
			return nil, fmt.Errorf("pipeline: neighbour verses: %w", err)
		}
		frontier = frontier[:0]
		for _, v := range verses {
			if _, ok := have[v.ID]; ok || reply[v.ID] && !replies(v) {
				continue
			}
			have[v.ID] = v
			c := a.candidate(len(cands)+1, v, rv)
			c.Context = true
			cands = append(cands, c)
			frontier = append(frontier, v.ID)
		}
		need = need[:0]
	}
	for i, c := range cands {
		if next, ok := have[c.Verse.ID+1]; ok && asksAsked(c.Verse) && replies(next) {
			cands[i].Answered = true
		}
	}
	return cands, nil
}

// replies reports whether a verse opens as a reply: its first clause has
// a verb of speaking (Retriever.Speech, WordNet's; an archaic form read as
// its modern one, "saith" as "say"), as the KJV opens one ("Jesus said
// unto him", "And he answered").
func (a *Answerer) replies(text string) bool {
	if a.r.Speech == nil {
		return false
	}
	found := false
	wordvec.Each(firstClause(text), func(w string) {
		if m, ok := a.r.lex.an.modern[w]; ok {
			w = m
		}
		found = found || a.r.Speech(w)
	})
	return found
}
