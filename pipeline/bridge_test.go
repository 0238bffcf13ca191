package pipeline_test

import (
	"slices"
	"testing"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/pipeline"
)

// TestThemeBridge: the word vectors bring a question's word to the theme
// it means when no Nave's title holds the word, and /ask answers from the
// theme when the router names none.
func TestThemeBridge(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, tt := range []struct{ q, want string }{
		{"How can I be saved?", "SALVATION"},
		{"I feel anxious", "CARE"},
		{"so much grief", "SORROW"},
		{"too jealous", "JEALOUSY"},
	} {
		if got := pipeline.NearThemes(b.r, tt.q); !slices.Contains(got, tt.want) {
			t.Errorf("%q: themes %v, want %s among them", tt.q, got, tt.want)
		}
	}

	// "How can I be saved?" names no theme ("saved" is no title) and its
	// search finds the verses saying "saved" of ships and battles; the
	// bridge answers it from SALVATION's key passages.
	a := b.answerer(nil)
	ans, err := a.Answer(b.ctx, "How can I be saved?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkGrounded(t, b.st, ans, 3)
	keys := []corpus.VerseID{
		corpus.NewVerseID(49, 2, 8), corpus.NewVerseID(43, 3, 16), corpus.NewVerseID(45, 10, 9),
		corpus.NewVerseID(44, 4, 12), corpus.NewVerseID(45, 6, 23), corpus.NewVerseID(56, 3, 5), corpus.NewVerseID(44, 16, 31),
	}
	cites := false
	for _, r := range ans.References {
		for _, id := range r.VerseIDs() {
			cites = cites || slices.Contains(keys, id)
		}
	}
	if ans.NoPassage || !cites {
		t.Errorf("%q: %v (no passage %v), want a key passage of SALVATION", "How can I be saved?", ans.References, ans.NoPassage)
	}
}
