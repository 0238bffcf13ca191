package pipeline

import (
	"context"
	"fmt"
	"slices"

	"github.com/selahdev/selah/corpus"
)

// Occasions: "What did Jesus say to the woman at the well?", "what did
// jesus say on the cross", "What did Jesus say to Nicodemus?" ask for his
// words at one event of his life or to one person, not for his teaching on
// a subject ("What did Jesus say about worry?", the voice's search). The
// event is what Nave's lists it under, and its verses the occasion's; his
// words among them are the answer.

// occasionWords open what follows a verb of speaking when the question
// asks for words said at a time, a place or to someone ("say to",
// "said on", "say when"), a closed class of English prepositions and
// subordinators; "about", "of" and "on" a subject ("Jesus on
// forgiveness", asksJesusWords) ask for teaching. "On" counts only after
// the verb: "what did Jesus say on the cross".
var occasionWords = map[string]bool{
	"to": true, "unto": true, "on": true, "at": true, "in": true, "when": true, "while": true,
	"during": true, "after": true, "before": true, "as": true, "from": true,
}

// asksOccasion reports whether a question asking what Jesus said
// (asksJesusWords) asks it of an occasion or a hearer: it asks what (a
// why- or how-question asks a reason or a manner: "why did jesus teach in
// parables"), and the word after its last verb of speaking is an
// occasion word.
func asksOccasion(q string) bool {
	if !asksWhat(q) {
		return false
	}
	ws := questionWords(q)
	last := -1
	for i, w := range ws {
		if speechWord(w) {
			last = i
		}
	}
	return last >= 0 && last+1 < len(ws) && occasionWords[ws[last+1]]
}

// occasion returns his words on the occasion the question names. The
// occasion is a Nave's entry the whole question (his name kept) routes to
// best, and of those tied, the ones whose verses together hold most of
// the question's words (relevance.passage, rv: the question without his
// name and the verb of speaking): "the woman at the well" routes alike to
// every entry of JESUS naming a woman, and the Samaritan's verses alone
// hold the well. More than maxOccasions entries holding as much are no
// one occasion ("What did Jesus say to his disciples in the storm?"
// ties the entries naming disciples, none holding the storm). The
// words are the verses the KJV marks as his, by entry in Nave's order;
// told, the routes of the first entry holding his words, limited to
// them, say what the occasion was.
// None when no entry is routed or none of the occasion's verses are his;
// the question is then answered as any about his words.
func (a *Answerer) occasion(ctx context.Context, question string, rv *relevance) (said []corpus.Verse, told []Routed, err error) {
	if a.Router == nil {
		return nil, nil, nil
	}
	routes, err := a.Router.Route(ctx, question, themeReach)
	if err != nil {
		return nil, nil, fmt.Errorf("pipeline: occasion: %w", err)
	}
	// A key passage is a theme's, no occasion; entries tie on a name
	// within the tie-breaks' margin.
	routes = slices.DeleteFunc(routes, func(r Routed) bool { return r.Key })
	if !namesTopic(routes) {
		return nil, nil, nil
	}
	type entry struct {
		routes []Routed
		held   float64
	}
	var entries []*entry
	at := map[[2]string]*entry{}
	for _, r := range routes {
		if r.Score < routes[0].Score-occasionTie {
			break
		}
		k := [2]string{r.Topic, r.Entry}
		e := at[k]
		if e == nil {
			e = &entry{}
			at[k] = e
			entries = append(entries, e)
		}
		e.routes = append(e.routes, r)
	}
	best := 0.0
	for _, e := range entries {
		e.held = rv.passage(routedVerses(e.routes))
		best = max(best, e.held)
	}
	entries = slices.DeleteFunc(entries, func(e *entry) bool { return e.held < best })
	if best == 0 || len(entries) > maxOccasions {
		return nil, nil, nil
	}
	var ids []corpus.VerseID
	for _, e := range entries {
		for _, id := range slices.Sorted(slices.Values(routedVerses(e.routes))) {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	verses, err := a.st.VersesByID(ctx, ids)
	if err != nil {
		return nil, nil, fmt.Errorf("pipeline: occasion verses: %w", err)
	}
	text := make(map[corpus.VerseID]corpus.Verse, len(verses))
	for _, v := range verses {
		text[v.ID] = v
	}
	his := map[corpus.VerseID]bool{}
	for _, id := range ids {
		if v, ok := text[id]; ok && v.WordsOfChrist {
			said = append(said, v)
			his[id] = true
		}
	}
	// What the occasion was is said of the first entry, by his words
	// there: the others tied on the question's words, and a sentence for
	// each told of every woman Jesus healed.
	for _, e := range entries {
		told = slices.DeleteFunc(slices.Clone(e.routes), func(r Routed) bool { return !his[r.Verse] })
		if len(told) > 0 {
			break
		}
	}
	return said, told, nil
}

// occasionTie is how far below the best an entry's route score may be
// and still be among the best: above the router's tie-breaks (1e-6
// apart), below any difference of match. maxOccasions is how many
// entries may tell one occasion: the Gospels' tellings of one event are
// one entry of Nave's, or an entry of each of the topics it names
// (PILATE's "Tries Jesus", JESUS' "Tried in front of Pilate").
const (
	occasionTie  = 1e-4
	maxOccasions = 6
)

// occasionAnswer answers from his words on the occasion (said, in Nave's
// order), with the verses that finish their sentences: each a candidate
// that needs no word of the question to be relevant (Key), ranked as a
// particular question's are, by the question's words each holds (query:
// the question without his name and the verb of speaking; rv reads it),
// then in Nave's order. told are the occasion's first entry's routes.
func (a *Answerer) occasionAnswer(ctx context.Context, query string, rv *relevance, said []corpus.Verse, told []Routed, maxRefs int, extractive bool) (Answer, error) {
	cands := make([]Candidate, len(said))
	for i, v := range said {
		cands[i] = Candidate{N: i + 1, Verse: v, Evidence: rv.evidence(v.ID), Key: true}
	}
	cands, err := a.withNeighbours(ctx, cands, rv)
	if err != nil {
		return Answer{}, err
	}
	// Nave's phrase of the occasion is the answer's sentence of its own
	// ("Jesus visits Sychar and teaches the Samaritan woman (John
	// 4:7-10)"), cited by his words there.
	q := Question{Text: query, MaxRefs: maxRefs, Candidates: cands, Facts: facts(told, rv), JesusWords: true, Particular: true}
	return a.write(ctx, q, Answer{}, extractive)
}
