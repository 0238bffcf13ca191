package worker

import (
	"context"
	"fmt"
	"time"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/topics"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/worker/tasks"
)

// maxAnswerTopics is how many topic hubs an answer links to at most.
const maxAnswerTopics = 3

// PassageRef is one cited passage (of an answer or a topic hub): the
// reference with its KJV text from the database, and its /scripture link.
type PassageRef struct {
	pipeline.Reference
	URL string `json:"url"`
}

// TopicLink points to a topic hub.
type TopicLink struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
	URL   string `json:"url"`
}

// AskResponse is the body of POST /ask.
type AskResponse struct {
	Answer       string       `json:"answer"`
	Summary      string       `json:"summary"`
	References   []PassageRef `json:"references"`
	Topics       []TopicLink  `json:"topics"`
	CanonicalURL string       `json:"canonicalUrl"`
	GeneratedAt  string       `json:"generatedAt"`
	Generator    string       `json:"generator"`
	// Grounded is false for a decline: no passage speaks to the question.
	Grounded  bool   `json:"grounded"`
	RequestID string `json:"requestId"`
}

// Asker runs ask jobs: it answers through the pipeline, links matching
// topic hubs, and stores the answer for its canonical page.
type Asker struct {
	Store    *store.Store
	Answerer *pipeline.Answerer
	// Now is the clock of generatedAt; nil is time.Now.
	Now func() time.Time
}

// Handle is the worker.Handler of ask jobs.
func (a *Asker) Handle(ctx context.Context, requestID string, payload []byte) (any, error) {
	args, err := tasks.DecodeArgs[tasks.AskArgs](payload)
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
	res := AskResponse{Answer: ans.Text, Summary: ans.Summary, References: make([]PassageRef, len(ans.References)),
		Topics: []TopicLink{}, GeneratedAt: now().UTC().Format(time.RFC3339), Generator: ans.Generator, Grounded: !ans.NoPassage, RequestID: requestID}
	rec := store.AnswerRecord{ID: store.NewAnswerID(), Question: args.Question, Answer: ans.Text, Summary: ans.Summary,
		Generator: ans.Generator, Source: args.Source}
	var cited []corpus.VerseID
	for i, r := range ans.References {
		res.References[i] = PassageRef{Reference: r, URL: tasks.ScriptureURL(r.Reference)}
		ids := r.VerseIDs()
		cited = append(cited, ids...)
		rec.Refs = append(rec.Refs, store.AnswerRef{Reference: r.Reference, First: ids[0], Last: ids[len(ids)-1]})
	}
	if !ans.NoPassage {
		for _, h := range topics.Match(args.Question, cited, maxAnswerTopics) {
			res.Topics = append(res.Topics, TopicLink{Slug: h.Slug, Title: h.Title, URL: tasks.TopicURL(h.Slug)})
			rec.Topics = append(rec.Topics, store.AnswerTopic{Slug: h.Slug, Title: h.Title})
		}
	}
	if args.Source == tasks.SourceChat {
		// A chat reply belongs to its conversation, which the web process
		// stores privately; it gets no public page.
		return res, nil
	}
	if err := a.Store.SaveAnswer(ctx, rec); err != nil {
		return nil, fmt.Errorf("worker: ask: %w", err)
	}
	res.CanonicalURL = args.BaseURL + tasks.AnswerPath(rec.ID)
	return res, nil
}
