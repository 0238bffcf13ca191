package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/topics"
)

// Topic hubs as a second retrieval source for answers. Search finds
// verses that share the question's words; the hubs hold the passages
// people mean by a theme ("What is love?" → 1 Corinthians 13), curated
// from Nave's Topical Bible. When a question names a theme, the key verses
// of its best hubs join the candidates, fused with the search hits by
// reciprocal rank. They are retrieved like any candidate: the generator
// still cites only candidates, and grounding still holds.
const (
	// hubsPerQuestion is how many matching hubs contribute verses.
	hubsPerQuestion = 2
	// hubWeight weighs the hub list against the search list in the fusion.
	// Measured with selah eval --ask (extractive, 43 questions, share of
	// answers citing an expected verse): no hubs 0.488; weight 1 0.767;
	// 1.5 0.837; 2 0.860; 3 0.860.
	hubWeight = 2.0
	// hubRRFK is the fusion's k, as for search (DefaultRRFK).
	hubRRFK = DefaultRRFK
)

// withHubVerses fuses hits with up to n key verses of the hubs that match
// question. Every search hit stays a candidate (a quotation's own verses
// must not be pushed out by a theme it touches), so there are at most 2n.
// A reference counts by its first verse: a hub's first verses are its
// strongest.
func (a *Answerer) withHubVerses(ctx context.Context, question string, hits []Hit, n int) ([]Hit, error) {
	hubs := topics.Match(question, nil, hubsPerQuestion)
	if len(hubs) == 0 {
		return hits, nil
	}
	// Interleave the hubs' references, best hub first, one verse each.
	var ids []corpus.VerseID
	seen := map[corpus.VerseID]bool{}
	refs := make([][]corpus.Reference, len(hubs))
	for i, h := range hubs {
		refs[i] = h.References()
	}
	for depth := 0; len(ids) < n; depth++ {
		added := false
		for _, rs := range refs {
			if depth < len(rs) {
				added = true
				if id := rs[depth].First(); !seen[id] {
					seen[id] = true
					ids = append(ids, id)
				}
			}
		}
		if !added {
			break
		}
	}
	verses, err := a.st.VersesByID(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("pipeline: hub verses: %w", err)
	}
	score := map[corpus.VerseID]float64{}
	byID := map[corpus.VerseID]Hit{}
	for i, h := range hits {
		score[h.Verse.ID] += 1 / (hubRRFK + float64(i+1))
		byID[h.Verse.ID] = h
	}
	for i, v := range verses {
		score[v.ID] += hubWeight / (hubRRFK + float64(i+1))
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
