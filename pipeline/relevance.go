package pipeline

import (
	"math"
	"slices"
)

// Relevance: retrieval always returns something, and the fused ranking
// is relative (its top score is near 1 whatever the query), so whether a verse speaks to the question at all is judged
// separately, by evidence: the share of the question's terms that the
// verse's KJV text contains, a term counting as present when the verse has
// the term itself or one of its synonyms (the thesaurus the local embedder
// widens queries with). Every term the corpus knows weighs the same (a
// question's words are each a part of it; weighting by idf made rare but
// generic verbs like "treat" or "cope" outweigh the topic). A term the
// corpus has never seen ("France", "football", "laptop") weighs
// unknownTermWeight: it marks a subject the Bible does not address, so a
// question built around it scores low however many small words match.
//
// A question has a relevant passage when one of the first relevanceDepth
// hits has evidence of at least minEvidence, or matched every term of the
// question in full text (FullTextRank > 0: in hybrid search the full-text
// list holds only verses with all the terms). Measured with the local
// embedder: every everyday question of ask.jsonl has a top-5 hit of at
// least 0.33 (lowest: "how can I help a friend who is struggling"), while
// off-topic questions with a word foreign to the Bible stay at or below
// 0.25 ("what is the capital of France" 0, "who won the football world
// cup" 0.17, "recommend a good laptop" 0.2, "asdf love" 0.25), and
// gibberish retrieves nothing at all. (With idf weights instead, "I feel
// lonely. Is God with me?" scored 0.17 and "what's the weather tomorrow"
// 0.61: no threshold separated them.) A question made only of words the
// Bible uses ("which stocks should I buy", 0.5) cannot be told apart this
// way and is answered. TestAnswerNoPassage and TestEvaluateAskExtractive
// hold both sides.
const (
	minEvidence       = 0.3
	relevanceDepth    = 5
	unknownTermWeight = 3
)

// relevance scores verses against one question.
type relevance struct {
	an    *analyzer
	terms []queryTerm
	total float64 // sum of the terms' weights
}

// queryTerm is one analysed term of the question with the synonyms that
// also count as speaking to it.
type queryTerm struct {
	term   string
	alts   []string
	weight float64
}

// questionFrame are terms that frame a question without naming its topic;
// they would only dilute its evidence.
var questionFrame = map[string]bool{
	"bibl": true, "scriptur": true, "vers": true, "say": true, "okay": true,
	"ok": true, "feel": true, "deal": true, "someth": true, "thing": true,
	"not": true,
}

// newRelevance analyses question q. With the local embedder its analyzer
// (which knows the KJV's archaic verb forms) and vocabulary are used;
// with another embedder no term is known to be foreign to the corpus.
func newRelevance(e Embedder, q string) *relevance {
	rv := &relevance{an: &analyzer{}}
	known := func(string) bool { return true }
	if l, ok := e.(*Local); ok {
		rv.an = &l.an
		known = func(t string) bool { _, ok := l.index[t]; return ok }
	}
	rv.an.terms(rewritePhrases(stripFrame(q)), func(t string) {
		if questionFrame[t] || slices.ContainsFunc(rv.terms, func(x queryTerm) bool { return x.term == t }) {
			return
		}
		qt := queryTerm{term: t, weight: 1}
		if !known(t) {
			qt.weight = unknownTermWeight
		}
		for _, w := range stemmedSynonyms[t] {
			rv.an.terms(w, func(s string) {
				if !slices.Contains(qt.alts, s) {
					qt.alts = append(qt.alts, s)
				}
			})
		}
		rv.terms = append(rv.terms, qt)
		rv.total += qt.weight
	})
	return rv
}

// evidence is the weighted share of the question's terms that text speaks
// to, in [0, 1].
func (rv *relevance) evidence(text string) float64 {
	if rv.total <= 0 {
		return 0
	}
	has := map[string]bool{}
	rv.an.terms(text, func(t string) { has[t] = true })
	var got float64
	for _, qt := range rv.terms {
		if has[qt.term] || slices.ContainsFunc(qt.alts, func(a string) bool { return has[a] }) {
			got += qt.weight
		}
	}
	return math.Round(got/rv.total*1e4) / 1e4
}

// relevant reports whether the hits hold a passage that speaks to the
// question (see the rule above); cands are the hits as candidates, in the
// same order.
func relevant(hits []Hit, cands []Candidate) bool {
	for i := range min(len(hits), len(cands), relevanceDepth) {
		if hits[i].FullTextRank > 0 || cands[i].Evidence >= minEvidence {
			return true
		}
	}
	return false
}
