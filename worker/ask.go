package worker

import (
	"context"
	"fmt"
	"time"

	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/topics"
	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
)

// maxAnswerTopics is how many topic hubs an answer links to at most.
const maxAnswerTopics = 3

// Asker runs ask jobs: it answers through the pipeline, links matching
// topic hubs, and stores the answer for its canonical page.
type Asker struct {
	Store    *store.Store
	Answerer *pipeline.Answerer
	// Now is the clock of generatedAt; nil is time.Now.
	Now func() time.Time
}

// Handle is the worker.Handler of ask jobs; its body is a jobs.AskResult.
// It returns the stored answer's id, not its address: the web process
// owns every URL.
func (a *Asker) Handle(ctx context.Context, requestID string, payload []byte) (any, error) {
	args, err := jobs.DecodeArgs[jobs.AskArgs](payload)
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	opts := pipeline.AnswerOptions{Extractive: args.Offline}
	for _, t := range args.Context {
		opts.Context = append(opts.Context, pipeline.Turn{Question: t.Question, References: t.References})
	}
	ans, err := a.Answerer.Answer(ctx, args.Question, args.MaxReferences, opts)
	if err != nil {
		return nil, err
	}
	now := time.Now
	if a.Now != nil {
		now = a.Now
	}
	res := jobs.AskResult{AskResponse: api.AskResponse{Answer: ans.Text, Summary: ans.Summary,
		References: make([]api.CitedPassage, len(ans.References)), Topics: []api.TopicLink{}, Words: ans.Words,
		GeneratedAt: now().UTC().Truncate(time.Second), Generator: ans.Generator, Grounded: !ans.NoPassage, RequestID: requestID}}
	rec := store.AnswerRecord{ID: store.NewAnswerID(), Question: args.Question, Answer: ans.Text, Summary: ans.Summary,
		Words: ans.Words, Generator: ans.Generator, Source: args.Source}
	if res.Words == nil {
		res.Words = []api.WordEntry{}
	}
	var cited []corpus.VerseID
	for i, r := range ans.References {
		ids := r.VerseIDs()
		res.References[i] = r.CitedPassage
		cited = append(cited, ids...)
		rec.Refs = append(rec.Refs, store.AnswerRef{Reference: r.Reference, First: ids[0], Last: ids[len(ids)-1]})
	}
	if !ans.NoPassage {
		for _, h := range topics.Match(args.Question, cited, maxAnswerTopics) {
			res.Topics = append(res.Topics, api.LinkTopic(h.Slug, h.Title))
			rec.Topics = append(rec.Topics, store.AnswerTopic{Slug: h.Slug, Title: h.Title})
		}
	}
	if args.Source == jobs.SourceChat {
		// A chat reply belongs to its conversation, which the web process
		// stores privately; it gets no public page.
		return res, nil
	}
	if err := a.Store.SaveAnswer(ctx, rec); err != nil {
		return nil, fmt.Errorf("worker: ask: %w", err)
	}
	res.AnswerID = rec.ID
	return res, nil
}
