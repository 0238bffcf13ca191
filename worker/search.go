package worker

import (
	"context"
	"fmt"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/worker/tasks"
)

// SearchResult is one verse found by /search.
type SearchResult struct {
	Reference   string  `json:"reference"`
	Book        string  `json:"book"`
	Chapter     int     `json:"chapter"`
	Verse       int     `json:"verse"`
	Text        string  `json:"text"`
	Translation string  `json:"translation"`
	Score       float64 `json:"score"`
}

// SearchResponse is the body of POST /search.
type SearchResponse struct {
	Query    string `json:"query"`
	Strategy string `json:"strategy"`
	Embedder string `json:"embedder"`
	// Confidence is the calibrated probability that the best result
	// answers the query, comparable across queries; Weak is set when it is
	// too low for the result to be trusted (or nothing was found).
	Confidence float64        `json:"confidence"`
	Weak       bool           `json:"weak"`
	Results    []SearchResult `json:"results"`
	RequestID  string         `json:"requestId"`
}

// Searcher runs search jobs.
type Searcher struct {
	Store     *store.Store
	Retriever *pipeline.Retriever
}

func result(v corpus.Verse, score float64) SearchResult {
	return SearchResult{Reference: v.ID.String(), Book: v.Book.Name, Chapter: v.Chapter, Verse: v.Number,
		Text: v.Text, Translation: "KJV", Score: score}
}

// Handle is the worker.Handler of search jobs. A query that is itself a
// reference returns that passage first, then what retrieval finds.
func (s *Searcher) Handle(ctx context.Context, requestID string, payload []byte) (any, error) {
	args, err := tasks.DecodeArgs[tasks.SearchArgs](payload)
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	res := SearchResponse{Query: args.Query, Embedder: s.Retriever.EmbedderName(),
		Results: []SearchResult{}, RequestID: requestID}
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
