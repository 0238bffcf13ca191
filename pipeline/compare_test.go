package pipeline_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/selahdev/selah/pipeline"
)

// TestAnswerComparison: a question comparing two things is answered of
// each, the first side with the larger share of the references, in one
// summary sentence; with one reference it cannot cite both and is
// answered whole.
func TestAnswerComparison(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.answerer(nil)
	ctx := context.Background()
	ans, err := a.Answer(ctx, "What is the difference between grace and mercy?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	refs := func(ans pipeline.Answer) []string {
		var out []string
		for _, r := range ans.References {
			out = append(out, r.Reference)
		}
		return out
	}
	got := refs(ans)
	for side, n := range map[string]int{"grace": 2, "mercy": 1} {
		alone, err := a.Answer(ctx, side, n, pipeline.AnswerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(alone.References) == 0 || !slices.Contains(got, alone.References[0].Reference) {
			t.Errorf("%s alone cites %v first; the comparison cites %v", side, refs(alone), got)
		}
		if !strings.Contains(ans.Text, alone.Text) {
			t.Errorf("the comparison's text %q lacks %s's %q", ans.Text, side, alone.Text)
		}
	}
	if len(got) > 3 {
		t.Errorf("%d references, asked for 3", len(got))
	}
	if n := len(pipeline.Sentences(ans.Summary)); n != 1 {
		t.Errorf("summary %q has %d sentences, want 1", ans.Summary, n)
	}
	one, err := a.Answer(ctx, "What is the difference between grace and mercy?", 1, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(one.References) != 1 {
		t.Errorf("with one reference asked for, got %v", refs(one))
	}
}

// TestEvaluateAskComparison: a comparison's expected verses come in
// groups, and it is a hit only when the answer cites a verse of each.
func TestEvaluateAskComparison(t *testing.T) {
	t.Parallel()
	a := setup(t).answerer(nil)
	cases, err := pipeline.ReadAskCases(strings.NewReader(`{"question": "What is the difference between grace and mercy?", "kind": "compare", "expectEach": [["Ephesians 2:8-9"], ["Lamentations 3:22"]]}
{"question": "What is the difference between grace and mercy?", "kind": "compare", "expectEach": [["Ephesians 2:8-9"], ["Genesis 5:27"]]}`))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := pipeline.EvaluateAsk(context.Background(), a, cases, 3)
	if err != nil {
		t.Fatal(err)
	}
	if rep.HitRate != 0.5 || len(rep.Misses) != 1 || rep.GroundedShare != 1 {
		t.Errorf("hit rate %.2f, misses %+v, grounded %.3f; want 0.5, the second case missed, 1", rep.HitRate, rep.Misses, rep.GroundedShare)
	}
}

// TestAnswerComparisonOutside: a side naming a thing the corpus never saw
// is not answered alone (alone, "a roth ira" reaches David's hero Ira),
// and the question is declined whole.
func TestAnswerComparisonOutside(t *testing.T) {
	t.Parallel()
	ans := setup(t).ask(t, "What is the difference between a roth ira and a traditional ira?")
	if !ans.NoPassage {
		t.Errorf("answered %q with %d references; want a decline", ans.Summary, len(ans.References))
	}
}

// TestAnswerComparisonSaidOnce: sides that reach the same verse and tell
// it alike ("the old testament" and "the new testament" both reach
// Matthew 26:27-28) do not make the answer say it twice.
func TestAnswerComparisonSaidOnce(t *testing.T) {
	t.Parallel()
	ans := setup(t).ask(t, "how is the old testament different from the new testament")
	seen := map[string]bool{}
	for _, s := range pipeline.Sentences(ans.Text) {
		if seen[s] {
			t.Errorf("said twice: %q in %q", s, ans.Text)
		}
		seen[s] = true
	}
	if strings.Count(ans.Summary, "Matthew 26:27-28") > 1 {
		t.Errorf("summary %q cites Matthew 26:27-28 twice", ans.Summary)
	}
}
