package pipeline_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/selahdev/selah/pipeline"
)

func TestFollowUpQuery(t *testing.T) {
	t.Parallel()
	ruth := []pipeline.Turn{{Question: "Who was Ruth?", References: []string{"Ruth 1:14"}}}
	tests := []struct {
		name, question string
		turns          []pipeline.Turn
		subject        string
	}{
		{"no conversation", "Whom did she marry?", nil, ""},
		{"pronoun", "Whom did she marry?", ruth, "ruth"},
		{"no content word", "Why?", ruth, "ruth"},
		{"demonstrative", "Where is that told?", ruth, "ruth"},
		{"stands alone", "Who was Boaz?", ruth, ""},
		{"third turn refers to the first", "Who was her son?",
			append(ruth, pipeline.Turn{Question: "Whom did she marry?"}), "ruth"},
		{"latest subject wins", "What did he do?",
			append(ruth, pipeline.Turn{Question: "Who was Boaz?"}), "boaz"},
		{"earlier turn without a subject", "What did he say?", []pipeline.Turn{{Question: "Why?"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, subject := pipeline.FollowUpQuery(tt.question, tt.turns)
			if subject != tt.subject {
				t.Fatalf("subject %q, want %q", subject, tt.subject)
			}
			if !strings.HasPrefix(q, tt.question) || (subject == "") != (q == tt.question) || !strings.Contains(q, subject) {
				t.Fatalf("query %q for subject %q", q, subject)
			}
		})
	}
}

// TestAnswerFollowUp is the conversation of the chat's acceptance: "Who was
// Ruth?" and then "Whom did she marry?" cites Ruth 4, where Boaz takes
// Ruth to wife, and is not the first answer again.
func TestAnswerFollowUp(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a, st := b.answerer(nil), b.st
	ctx := context.Background()
	first, err := a.Answer(ctx, "Who was Ruth?", 5, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	turn := pipeline.Turn{Question: "Who was Ruth?"}
	for _, r := range first.References {
		turn.References = append(turn.References, r.Reference)
	}
	alone, err := a.Answer(ctx, "Whom did she marry?", 5, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cites(alone, "Ruth 4:") {
		t.Fatalf("without the conversation the follow-up already cites Ruth 4 (%v): the test shows nothing", refs(alone))
	}
	ans, err := a.Answer(ctx, "Whom did she marry?", 5, pipeline.AnswerOptions{Context: []pipeline.Turn{turn}})
	if err != nil {
		t.Fatal(err)
	}
	checkGrounded(t, st, ans, 5)
	t.Logf("follow-up cites %v", refs(ans))
	if !cites(ans, "Ruth 4:") {
		t.Fatalf("the follow-up cites %v, want a verse of Ruth 4 (first answer cited %v)", refs(ans), turn.References)
	}
	// It may cite a verse of the first answer again (Ruth 4:13 answers both
	// questions), but it is not the first answer again.
	if slices.Equal(refs(ans), turn.References) {
		t.Errorf("the follow-up repeats the first answer's references %v", turn.References)
	}
}

func refs(a pipeline.Answer) []string {
	var out []string
	for _, r := range a.References {
		out = append(out, r.Reference)
	}
	return out
}

func cites(a pipeline.Answer, prefix string) bool {
	for _, r := range a.References {
		if strings.HasPrefix(r.Reference, prefix) {
			return true
		}
	}
	return false
}
