package pipeline

import (
	"math"

	"github.com/selahdev/selah/corpus"
)

// Relevance. Retrieval always returns something when any word matches, so
// whether the Bible speaks to a question at all is the calibrated
// confidence of the best match (calibrate.go): below WeakBelow the search
// result is weak, and /ask declines rather than answer with verses that
// merely share a word.
func relevant(res Results) bool {
	return len(res.Hits) > 0 && !res.Weak
}

// Evidence of one candidate, for the generators: the share of the
// question's content words that the verse holds in its KJV or WEB wording.
// A word the corpus has never seen ("France", "laptop") counts
// unknownTermWeight times: it marks a subject the Bible does not address.
const unknownTermWeight = 3

// relevance scores verses against one question.
type relevance struct {
	r *Retriever
	q lexQuery
}

func (r *Retriever) newRelevance(question string) *relevance {
	return &relevance{r: r, q: r.analyse(question)}
}

// evidence is in [0, 1].
func (rv *relevance) evidence(id corpus.VerseID) float64 {
	d, ok := rv.r.lex.docIndex[id]
	total := float64(rv.q.words) + unknownTermWeight*float64(rv.q.unknown)
	if !ok || total == 0 {
		return 0
	}
	got := rv.r.lex.coverage(rv.q.typed, d) * float64(rv.q.words)
	return math.Round(got/total*1e4) / 1e4
}

// passage is the share of the question's typed words (idf-weighted; a
// word the corpus has never seen weighs as the rarest) that any of the
// verses holds: how much of a question a passage speaks to as a whole,
// when no one verse names both the woman and the well.
func (rv *relevance) passage(ids []corpus.VerseID) float64 {
	docs := make([]int32, 0, len(ids))
	for _, id := range ids {
		if d, ok := rv.r.lex.docIndex[id]; ok {
			docs = append(docs, d)
		}
	}
	return rv.r.lex.idfCoverageAny(rv.q.typed, rv.q.unknown, docs)
}
