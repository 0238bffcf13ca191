package store

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"

	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
)

// AnswerRecord is a stored answer: what its canonical page shows.
type AnswerRecord struct {
	ID        string
	Question  string
	Answer    string
	Summary   string
	Refs      []AnswerRef
	Topics    []AnswerTopic
	Words     []api.WordEntry // as the API returned them; [] when none, never nil once read
	Generator string
	Source    string // "api" or "web"
	CreatedAt time.Time
}

// AnswerRef is one cited passage: its canonical reference and the verse
// ids it spans. The text is read from verses when shown.
type AnswerRef struct {
	Reference string         `json:"reference"`
	First     corpus.VerseID `json:"first"`
	Last      corpus.VerseID `json:"last"`
}

// AnswerTopic is a topic hub an answer links to.
type AnswerTopic struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
}

// NewAnswerID returns a fresh public answer id: 128 random bits, so pages
// cannot be enumerated.
func NewAnswerID() string { return "ans_" + rand.Text() }

// SaveAnswer stores an answer. The id must come from NewAnswerID.
func (s *Store) SaveAnswer(ctx context.Context, a AnswerRecord) error {
	refs, err := json.Marshal(nonNil(a.Refs))
	if err != nil {
		return fmt.Errorf("store: save answer: %w", err)
	}
	topics, err := json.Marshal(nonNil(a.Topics))
	if err != nil {
		return fmt.Errorf("store: save answer: %w", err)
	}
	words, err := json.Marshal(nonNil(a.Words))
	if err != nil {
		return fmt.Errorf("store: save answer: %w", err)
	}
	_, err = s.pool.Exec(ctx, `
		INSERT INTO answers (id, question, answer, summary, refs, topics, words, generator, source)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		a.ID, a.Question, a.Answer, a.Summary, refs, topics, words, a.Generator, a.Source)
	if err != nil {
		return fmt.Errorf("store: save answer: %w", err)
	}
	return nil
}

// AnswerByID returns the stored answer, or selah.ErrNotFound.
func (s *Store) AnswerByID(ctx context.Context, id string) (AnswerRecord, error) {
	var a AnswerRecord
	var refs, topics, words []byte
	err := s.pool.QueryRow(ctx, `
		SELECT id, question, answer, summary, refs, topics, words, generator, source, created_at
		FROM answers WHERE id = $1`, id).
		Scan(&a.ID, &a.Question, &a.Answer, &a.Summary, &refs, &topics, &words, &a.Generator, &a.Source, &a.CreatedAt)
	if err != nil {
		return a, notFound("answer "+id, err)
	}
	if err := json.Unmarshal(refs, &a.Refs); err != nil {
		return a, fmt.Errorf("store: answer %s refs: %w", id, err)
	}
	if err := json.Unmarshal(topics, &a.Topics); err != nil {
		return a, fmt.Errorf("store: answer %s topics: %w", id, err)
	}
	if err := json.Unmarshal(words, &a.Words); err != nil {
		return a, fmt.Errorf("store: answer %s words: %w", id, err)
	}
	return a, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
