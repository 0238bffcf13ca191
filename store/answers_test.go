package store_test

import (
	"context"
	"errors"
	"regexp"
	"testing"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

func TestAnswers(t *testing.T) {
	st := storetest.NewStore(t)
	ctx := context.Background()
	id := store.NewAnswerID()
	if !regexp.MustCompile(`^ans_[0-9A-Z]{26}$`).MatchString(id) || id == store.NewAnswerID() {
		t.Fatalf("answer id %q", id)
	}
	want := store.AnswerRecord{ID: id, Question: "Why pray?", Answer: "Because ...", Summary: "Pray.",
		Refs:      []store.AnswerRef{{Reference: "Matthew 6:9-13", First: corpus.NewVerseID(40, 6, 9), Last: corpus.NewVerseID(40, 6, 13)}},
		Topics:    []store.AnswerTopic{{Slug: "prayer", Title: "Prayer"}},
		Generator: "extractive", Source: "api"}
	if err := st.SaveAnswer(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err := st.AnswerByID(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Question != want.Question || len(got.Refs) != 1 || got.Refs[0] != want.Refs[0] || got.Topics[0] != want.Topics[0] || got.CreatedAt.IsZero() {
		t.Fatalf("got %+v", got)
	}
	// No refs is stored as an empty list, not null.
	empty := store.AnswerRecord{ID: store.NewAnswerID(), Question: "?", Generator: "extractive", Source: "web"}
	if err := st.SaveAnswer(ctx, empty); err != nil {
		t.Fatal(err)
	}
	if got, err := st.AnswerByID(ctx, empty.ID); err != nil || got.Refs == nil || len(got.Refs) != 0 {
		t.Fatalf("empty answer: %+v %v", got, err)
	}
	if _, err := st.AnswerByID(ctx, "ans_NOPE"); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("missing answer: %v", err)
	}
	for _, bad := range []store.AnswerRecord{
		{ID: "x", Question: "q", Generator: "g", Source: "api"},
		{ID: store.NewAnswerID(), Question: "", Generator: "g", Source: "api"},
		{ID: store.NewAnswerID(), Question: "q", Generator: "g", Source: "email"},
	} {
		if err := st.SaveAnswer(ctx, bad); err == nil {
			t.Errorf("saved %+v", bad)
		}
	}
}
