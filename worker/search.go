package worker

import (
	"context"
	"fmt"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
)

// Searcher runs search jobs.
type Searcher struct {
	Store     *store.Store
	Retriever *pipeline.Retriever
}

func result(v corpus.Verse, score float64) api.SearchResult {
	return api.SearchResult{Reference: v.ID.String(), Book: v.Book.Name, Chapter: v.Chapter, Verse: v.Number,
		Text: v.Text, Translation: api.KJV, Score: score}
}

// Handle is the worker.Handler of search jobs; its body is an
// api.SearchResponse. A query that is itself a
// reference returns that passage first, then what retrieval finds.
func (s *Searcher) Handle(ctx context.Context, requestID string, payload []byte) (any, error) {
	args, err := jobs.DecodeArgs[jobs.SearchArgs](payload)
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	res := api.SearchResponse{Query: args.Query, Embedder: s.Retriever.EmbedderName(),
		Results: []api.SearchResult{}, RequestID: requestID}
	seen := map[corpus.VerseID]bool{}
	isRef := false
	if ref, err := corpus.ParseReference(args.Query); err == nil {
		isRef = true
		vs, err := s.Store.VerseRangeN(ctx, ref.First(), ref.Last(), args.Limit)
		if err != nil {
			return nil, err
		}
		for _, v := range vs {
			if len(res.Results) == args.Limit {
				break
			}
			seen[v.ID] = true
			res.Results = append(res.Results, result(v, 1))
		}
	}
	// Retrieval runs even when the reference filled the page: its strategy
	// and confidence describe the query.
	found, err := s.Retriever.Search(ctx, args.Query, args.Limit)
	if err != nil {
		if selah.ErrorCode(err) != selah.EINTERNAL {
			return nil, err
		}
		return nil, fmt.Errorf("worker: search: %w", err)
	}
	res.Strategy, res.Confidence, res.Weak = found.Strategy, found.Confidence, found.Weak
	if isRef {
		// The reference's own verses are certain.
		res.Strategy = "reference+" + res.Strategy
		if len(res.Results) > 0 {
			res.Confidence, res.Weak = 1, false
		}
	}
	for _, h := range found.Hits {
		if len(res.Results) == args.Limit {
			break
		}
		if seen[h.Verse.ID] {
			continue
		}
		seen[h.Verse.ID] = true
		res.Results = append(res.Results, result(h.Verse, h.Score))
	}
	return res, nil
}
