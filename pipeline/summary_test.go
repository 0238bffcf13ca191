package pipeline_test

import (
	"slices"
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

// TestAnswerNamed: a question asking to explain or summarize a passage
// by its name is answered as the plain question naming it is, when
// Nave's names it; before, the frame's words ("summarize", "explain")
// named nothing and the question was declined or searched for its
// words ("explain the golden rule": Revelation 8:3's golden censer).
// A name Nave's does not hold is still declined.
func TestAnswerNamed(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tests := []struct {
		q    string
		want string // a cited reference starting so
	}{
		{"Summarize the Sermon on the Mount", "Matthew 5"},
		{"explain the golden rule", "Matthew 7:12"},
		{"eli5 the story of zaccheus", "Luke 19"},
		{"can you explain the magnificat for me", "Luke 1:4"},
	}
	for _, tt := range tests {
		ans, err := b.answerer(nil).Answer(t.Context(), tt.q, 3, pipeline.AnswerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(refs(ans), func(r string) bool { return strings.HasPrefix(r, tt.want) }) {
			t.Errorf("%q cites %v, want %s", tt.q, refs(ans), tt.want)
		}
	}
	// A gospel or book the KJV does not hold is declined, not told from
	// its namesake's verses (Judas' betrayal); one whose name the KJV
	// writes is answered.
	for q, decline := range map[string]bool{
		"summarize the nicene creed":         true,
		"What is the Gospel of Judas about?": true,
		"what is the book of enoch about":    true,
		"what is the gospel of thomas":       true,
		"what is the book of life":           false,
		"what is the gospel of grace":        false,
	} {
		ans, err := b.answerer(nil).Answer(t.Context(), q, 3, pipeline.AnswerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if ans.NoPassage != decline {
			t.Errorf("%q cites %v, want declined %v", q, refs(ans), decline)
		}
	}
}
