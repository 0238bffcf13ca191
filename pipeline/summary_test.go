package pipeline_test

import (
	"strings"
	"testing"

	"github.com/selahdev/selah/pipeline"
)

// TestAnswerSummary: a question asking what a book is about is answered
// from the book's own most-cited passages, as many as asked for, and says
// what Nave's tells of them; before, "book" found Revelation 20:12 ("the
// books were opened") or nothing.
func TestAnswerSummary(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tests := []struct {
		q, book string
		says    []string // in the answer, any of them
	}{
		{"summarize the book of ruth", "Ruth", []string{"Ruth's devotion to Naomi", "married Boaz"}},
		{"what is the book of romans about", "Romans", []string{"The verses of the book of Romans most cited"}},
		{"what is ecclesiastes about", "Ecclesiastes", []string{"Ecclesiastes 12:13"}},
		{"give me an overview of the book of acts", "Acts", []string{"Acts 2:38"}},
	}
	for _, tt := range tests {
		for _, n := range []int{3, 5} {
			ans, err := b.answerer(nil).Answer(t.Context(), tt.q, n, pipeline.AnswerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if ans.NoPassage || len(ans.References) != n {
				t.Errorf("%q at %d cites %v, want %d passages", tt.q, n, refs(ans), n)
			}
			for _, r := range refs(ans) {
				if !strings.HasPrefix(r, tt.book+" ") {
					t.Errorf("%q cites %s, want the book's own verses", tt.q, r)
				}
			}
			if !containsAny(ans.Text, tt.says) {
				t.Errorf("%q answers %q, want one of %q", tt.q, ans.Text, tt.says)
			}
		}
	}
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
