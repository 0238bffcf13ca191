package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/selahdev/selah/corpus"
)

// The topic router as a source of answer candidates. Search finds verses
// that share the question's words; a question that names a person, place
// or event ("Who was Melchizedek?") means the passages about it, which
// need not share its words (Hebrews spells the name Melchisedec). The
// router's verses join the candidates, fused with the search hits by
// reciprocal rank, each weighted by its route score, so a weak route
// barely moves the list. As with the hubs, the generator still cites only
// candidates, and grounding still holds.
const (
	// routeWeight weighs the router's list against the search list, times
	// each verse's route score.
	routeWeight = 2.0
	// routeNames: a route at least this strong means the question names a
	// Nave's topic (its title, or an alias, accounting for most of the
	// question), so it has passages to answer from even when search's word
	// evidence says otherwise.
	routeNames = 0.6
)

// route asks the router, when there is one, for up to n verses.
func (a *Answerer) route(ctx context.Context, question string, n int) ([]Routed, error) {
	if a.Router == nil {
		return nil, nil
	}
	routed, err := a.Router.Route(ctx, question, n)
	if err != nil {
		return nil, fmt.Errorf("pipeline: answer: %w", err)
	}
	return routed, nil
}

// themeResult is what the theme of a question gave: teaching, the verses of
// the theme's key passages and sections when the question is answered
// from it; trap, the question is a sense trap (senses.trap); gate, what
// the theme gate weighed (nil when no theme reached it).
type themeResult struct {
	teaching []Routed
	topic    string // the theme answered from, with teaching
	trap     bool
	gate     *gateFeatures
	// pool, when asked for (wide), is the teaching of every theme the
	// question reaches (weighThemes), and chosen the index of the one it
	// is answered from (-1: none): what ThemeReach measures.
	pool   [][]Routed
	chosen int
}

// theme reads the theme topics a question names (routes, best first;
// routes[0] is not a name: see Answer) with the Bible's sense of their
// words (sense.go). A trap is read on the best route: its word is a thing
// named outside the Bible's setting. Otherwise the theme is the topic the
// question is most about (weighThemes), an abstraction with key passages
// or sections, and the theme gate (gate.go) says whether the question
// speaks of it as the Bible does (v: the question asks what Jesus said
// or what a book says, and the rule the gate replaced may answer too;
// only a question about his words is in the Bible's setting whatever
// thing it names); then the teaching
// is its key passages, then its sections' verses in order of the question
// (byQuestion), at most maxRoutedVerses. Which of a theme's entries
// matched best says little (PRAYER's "Answer to, exceeds petition" for
// "does he answer every prayer"): any of its sections will do.
//
// A question asking whether the Bible speaks of a thing (thing:
// exists.go) is answered from the theme titled by the thing, when one is
// and the gate lets it through (namedTheme).
func (a *Answerer) theme(ctx context.Context, question string, routes []Routed, rv *relevance, v voice, wide, thing bool) (themeResult, error) {
	// What the question names is decided on Nave's alone, without the
	// topics' key passages (corpus/topics keys), as before there were
	// keys; a chosen theme's keys then come first, in the order a teacher
	// gave them.
	// With no topic named, the word vectors may still bridge the question
	// to a theme (weighThemes, bridge.go).
	i := slices.IndexFunc(routes, func(r Routed) bool { return !r.Key })
	if i < 0 && a.r.bridge == nil {
		return themeResult{}, nil
	}
	bridged := true
	if i >= 0 {
		if ts := a.r.senses.topic(routes[i].Topic); ts.thing() {
			// The question names a thing ("Why did God send the flood?"),
			// in the Bible's setting or a trap. A question asking what
			// Jesus said is in the Bible's setting whatever thing it
			// names: "Why did Jesus curse the fig tree?" is searched
			// without his name, and its fig tree alone reads as a thing
			// of the modern world would.
			if !v.jesus && a.r.senses.trapAmong(question, routes[i:]) {
				return themeResult{trap: true}, nil
			}
			// A thing is no theme, but the question's other words may
			// name one: "I drink every night and hide the bottles" is
			// about drunkenness, "my teenage son slams doors" about
			// parents. The themes are those the question routes to
			// without the things it names, so that a theme filed under
			// the things' words ("boiling point of water at 5000 feet":
			// ABLUTION, the washing of feet with water) is not read as
			// its subject; and none is bridged from the word vectors,
			// which would be near the things.
			var err error
			if routes, err = a.route(ctx, withoutTerms(a.r, question, a.thingTerms(routes)), themeReach); err != nil {
				return themeResult{}, err
			}
			bridged = false
		}
	}
	pool, best := a.weighThemes(question, routes, bridged, wide, v)
	out := themeResult{chosen: -1}
	if wide {
		for _, c := range pool {
			out.pool = append(out.pool, a.teaching(question, c, rv))
		}
	}
	if best < 0 {
		return out, nil
	}
	if thing {
		if i := a.namedTheme(question, pool, rv); i >= 0 {
			best = i
		}
	}
	c := pool[best]
	f := a.gateFeatures(question, c, rv)
	out.gate = &f
	// The rule the gate replaced: one of the question's other words in the
	// theme's text, and its title held whole. It stands without the SIF
	// vectors (the OpenAI-compatible embedder: no likeness to weigh), and
	// beside the gate for a question about what Jesus said: "what does
	// Jesus say about divorce and remarriage" names its theme by its form,
	// and its teaching is his words (Answer), while the gate was fitted on
	// questions in people's own words ("remarriage", a word the corpus
	// never saw, weighs against it there).
	rule := !c.ts.outOfSetting(a.r, question) && c.ts.holdsTitle(a.r, question)
	if _, lk := a.r.Dense.(likeness); lk && !themeGate.answers(f) && !(v.scoped() && rule) || !lk && !rule {
		return out, nil
	}
	out.teaching, out.topic, out.chosen = a.teaching(question, c, rv), c.topic, best
	return out, nil
}

// namedTheme returns the index in pool of the theme a question asking
// whether the Bible speaks of a thing names: of the themes whose title
// the thing holds whole, the first (before) that the theme gate lets
// through; -1 when none is. Such a question asks of its thing, not of
// the theme its words are most like: "does the bible mention astrology"
// was answered from SORCERY, which ASTROLOGY refers to, and "cremation
// or burning a body" weighed BODY, which the gate declined, before
// CREMATION.
func (a *Answerer) namedTheme(question string, pool []themeCandidate, rv *relevance) int {
	best := -1
	for i, c := range pool {
		if !c.eligible || c.whole == 0 || best >= 0 && !before(c, pool[best]) {
			continue
		}
		if themeGate.answers(a.gateFeatures(question, c, rv)) {
			best = i
		}
	}
	return best
}

// teaching is what a theme teaches the question: its key passages, then
// its sections' verses in order of the question (byQuestion), at most
// maxRoutedVerses.
func (a *Answerer) teaching(question string, c themeCandidate, rv *relevance) []Routed {
	var keys, sections []Routed
	for _, r := range c.routes {
		if r.Key {
			keys = append(keys, r)
		} else {
			sections = append(sections, r)
		}
	}
	teaching := append(keys, a.byQuestion(question, sections, rv)...)
	return teaching[:min(len(teaching), maxRoutedVerses)]
}

// thingTerms are the terms of the titles of the topics among the first
// maxThemeChoices of routes whose Bible sense is a thing (sense.go).
func (a *Answerer) thingTerms(routes []Routed) map[string]bool {
	out := map[string]bool{}
	seen := map[string]bool{}
	for _, r := range routes {
		if r.Key || seen[r.Topic] {
			continue
		}
		if seen[r.Topic] = true; len(seen) > maxThemeChoices {
			break
		}
		if ts := a.r.senses.topic(r.Topic); ts.thing() {
			for t := range ts.own {
				out[t] = true
			}
		}
	}
	return out
}

// withoutTerms is q without the words whose index term is in terms.
func withoutTerms(r *Retriever, q string, terms map[string]bool) string {
	words := strings.Fields(q)
	out := words[:0:0]
	for _, w := range words {
		drop := false
		r.lex.an.terms(w, func(t string) { drop = drop || terms[t] })
		if !drop {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// likeness scores given verses by their likeness to a text: the cosine
// of their SIF vectors (SIFIndex.Similarity).
type likeness interface {
	Similarity(text string, ids []corpus.VerseID) []float64
}

// byQuestion orders a theme's verses by the share of the question's
// words each holds plus its likeness to the question (the dense source's
// cosine, when it can score given verses; none for the OpenAI-compatible
// embeddings), both in [0, 1] for a relevant verse and added unweighted.
// Nave's lists them in book order ("FAITH: General scriptures concerning
// 2Sa 22:31; Ps 2:12; …"), and a theme's verses seldom hold many of a
// question's words: the likeness separates the many that hold its one.
func (a *Answerer) byQuestion(question string, rs []Routed, rv *relevance) []Routed {
	score := make(map[corpus.VerseID]float64, len(rs))
	for _, r := range rs {
		score[r.Verse] = rv.evidence(r.Verse)
	}
	if lk, ok := a.r.Dense.(likeness); ok {
		ids := routedVerses(rs)
		for i, s := range lk.Similarity(question, ids) {
			score[ids[i]] += s
		}
	}
	slices.SortStableFunc(rs, func(x, y Routed) int {
		return cmp.Compare(score[y.Verse], score[x.Verse])
	})
	return rs
}

// namesTopic reports whether the routes show the question naming a topic.
func namesTopic(routed []Routed) bool {
	return len(routed) > 0 && routed[0].Score >= routeNames
}

// routedVerses are the verses of routes, in their order.
func routedVerses(routes []Routed) []corpus.VerseID {
	ids := make([]corpus.VerseID, len(routes))
	for i, r := range routes {
		ids[i] = r.Verse
	}
	return ids
}

// withRoutedVerses fuses hits with the routed verses. Every search hit
// stays a candidate, so there are at most len(hits)+len(routed).
func (a *Answerer) withRoutedVerses(ctx context.Context, hits []Hit, routed []Routed) ([]Hit, error) {
	if len(routed) == 0 {
		return hits, nil
	}
	verses, err := a.st.VersesByID(ctx, routedVerses(routed))
	if err != nil {
		return nil, fmt.Errorf("pipeline: routed verses: %w", err)
	}
	text := make(map[corpus.VerseID]corpus.Verse, len(verses))
	for _, v := range verses {
		text[v.ID] = v
	}
	score := map[corpus.VerseID]float64{}
	byID := map[corpus.VerseID]Hit{}
	for i, h := range hits {
		score[h.Verse.ID] += 1 / (DefaultRRFK + float64(i+1))
		byID[h.Verse.ID] = h
	}
	for i, r := range routed {
		v, ok := text[r.Verse]
		if !ok {
			continue
		}
		score[v.ID] += routeWeight * r.Score / (DefaultRRFK + float64(i+1))
		if _, ok := byID[v.ID]; !ok {
			byID[v.ID] = Hit{Verse: v}
		}
	}
	out := make([]Hit, 0, len(byID))
	for id, h := range byID {
		h.Score = score[id]
		out = append(out, h)
	}
	slices.SortFunc(out, func(x, y Hit) int {
		return cmp.Or(cmp.Compare(y.Score, x.Score), cmp.Compare(x.Verse.ID, y.Verse.ID))
	})
	return out, nil
}

// topicLister is the router read the other way: the Nave's entries that
// list a verse (NaveRouter.Listed).
type topicLister interface {
	Listed(v corpus.VerseID) []Routed
}

// listings are the Nave's topics that file the candidates under a title
// holding a word of the question, or under theme (the theme the answer
// rests on, "" for none), for Question.Listings: each topic once, with its
// candidate verses, the theme first, then ranked by the rarity (the
// lexical index's idf) of the question's words its title holds, then by
// its first candidate's rank.
func (a *Answerer) listings(cands []Candidate, rv *relevance, theme string) []Fact {
	tl, ok := a.Router.(topicLister)
	if !ok {
		return nil
	}
	asked := map[int32]bool{}
	for _, t := range rv.q.typed {
		asked[t.id] = true
	}
	var out []Fact
	at := map[string]int{}
	for _, cand := range cands {
		for _, l := range tl.Listed(cand.Verse.ID) {
			if i, ok := at[l.Topic]; ok {
				if !slices.Contains(out[i].Verses, cand.Verse.ID) {
					out[i].Verses = append(out[i].Verses, cand.Verse.ID)
				}
				continue
			}
			title, _ := a.r.lex.query(l.Topic, nil)
			mass := 0.0
			for _, t := range title {
				if asked[t.id] {
					mass += a.r.lex.idf[t.id]
				}
			}
			if l.Topic == theme {
				// The theme the answer rests on, whatever its words
				// ("worrying" is answered from CARE): first.
				mass = math.Inf(1)
			}
			if mass == 0 {
				continue
			}
			at[l.Topic] = len(out)
			out = append(out, Fact{Topic: l.Topic, Verses: []corpus.VerseID{cand.Verse.ID}, Score: mass})
		}
	}
	slices.SortStableFunc(out, func(x, y Fact) int { return cmp.Compare(y.Score, x.Score) })
	return out
}

// outranksThemes reports whether the best of routes, an entry, accounts
// for more of the question than any theme's own teaching (its key
// passages, its sections) does: "what does the parable of the lost sheep
// teach" names LOST SHEEP's "Parable of" (0.88) above SHEEP's teaching
// (0.51), whose key passages are of the Lord as shepherd.
func outranksThemes(routes []Routed) bool {
	for _, r := range routes {
		if r.Topic == routes[0].Topic && r.Entry == routes[0].Entry {
			// The best's own verses: a section of teaching may be the
			// best ("What is the ark of the covenant?": ARK's "Called
			// THE ARK — OF THE COVENANT"), and is no other's.
			continue
		}
		if r.Key || r.Section {
			return routes[0].Score > r.Score
		}
	}
	return false
}

// asksWhat reports whether the question opens with "what" or "which":
// it asks what a thing is or says, where "how should I raise my
// children" asks for a way, which a theme's teaching gives.
func asksWhat(query string) bool {
	ws := questionWords(askedSentences(query))
	return len(ws) > 0 && (ws[0] == "what" || ws[0] == "which")
}

// storyWords open a question that asks what happened, to whom, where.
var storyWords = map[string]bool{"who": true, "whom": true, "whose": true, "how": true, "when": true, "where": true, "what": true, "which": true}

// instance returns the routes of the theme entry that names a person or
// place the question names ("How did Moses die?": DEATH's "SCENES OF —
// DEATH OF MOSES"; "Who betrayed Jesus?": BETRAYAL's "Of Jesus"), or
// that a what-question names in words of its own better than any theme's
// teaching is named ("what does the parable of the lost sheep teach":
// LOST SHEEP's "Parable of", outranksThemes): the
// question asks of that instance, not of the theme at large. Nil when the
// best route is no such entry.
func (a *Answerer) instance(query string, themed []Routed) []Routed {
	if !namesTopic(themed) || themed[0].Key || themed[0].Entry == "" {
		return nil
	}
	// "Why did Jesus have to die?" and "Does the Bible say Jesus is God?"
	// ask for teaching, not for the story.
	if ws := questionWords(askedSentences(query)); len(ws) == 0 || !storyWords[ws[0]] {
		return nil
	}
	entry := map[string]bool{}
	for _, w := range questionWords(themed[0].Entry) {
		entry[w] = true
	}
	if !slices.ContainsFunc(questionWords(query), func(w string) bool {
		w = unpossessed(w)
		return a.r.proper[w] > 0 && entry[w]
	}) && !(asksWhat(query) && themed[0].Echo && outranksThemes(themed) && !a.r.echoesOnlyUbiquitous(query, themed[0].Entry)) {
		return nil
	}
	var out []Routed
	for _, r := range themed {
		if r.Topic == themed[0].Topic && r.Entry == themed[0].Entry {
			out = append(out, r)
		}
	}
	return out
}
