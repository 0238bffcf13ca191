package pipeline_test

import (
	"context"
	"strings"
	"testing"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/pipeline"
)

func TestDefaultAskCases(t *testing.T) {
	cases, err := pipeline.DefaultAskCases()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 32 {
		t.Fatalf("%d cases, want at least 32", len(cases))
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.Question] {
			t.Errorf("duplicate question %q", c.Question)
		}
		seen[c.Question] = true
		if len(c.Expect) < 2 {
			t.Errorf("%q expects %d verses, want several", c.Question, len(c.Expect))
		}
		for _, id := range c.Expect {
			if !id.Valid() {
				t.Errorf("%q: invalid verse %d", c.Question, id)
			}
		}
	}
}

func TestReadAskCases(t *testing.T) {
	in := `{"question": "a?", "expect": ["John 3:16", "Matthew 5:3-5"]}

# a comment
{"question": "b?", "expect": ["Jude 1:3"]}
`
	cases, err := pipeline.ReadAskCases(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 || len(cases[0].Expect) != 4 || cases[0].Expect[3] != corpus.NewVerseID(40, 5, 5) {
		t.Fatalf("cases %+v", cases)
	}
	for _, bad := range []string{
		`{"question": "a", "expect": ["Hezekiah 1:1"]}`,
		`{"question": "a", "expect": []}`,
		`{"question": " ", "expect": ["John 3:16"]}`,
		`not json`,
	} {
		if _, err := pipeline.ReadAskCases(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

// askHitFloor is the extractive hit rate on ask.jsonl, measured at 0.465
// (20 of 43; an expected verse is among the 10 candidates for 28), less a
// margin for retrieval changes.
const askHitFloor = 0.40

// TestEvaluateAskExtractive is the acceptance test of the answer pipeline
// offline: every reference of every answer is grounded, and the answers
// cite an expected verse often enough.
func TestEvaluateAskExtractive(t *testing.T) {
	a, _ := newAnswerer(t, nil)
	cases, err := pipeline.DefaultAskCases()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := pipeline.EvaluateAsk(context.Background(), a, cases, 3)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	t.Logf("ask eval (%d cases):\n%s", len(cases), b.String())
	if rep.GroundedShare != 1 {
		t.Errorf("grounded share %.3f, want 1", rep.GroundedShare)
	}
	if rep.References == 0 {
		t.Error("no references at all")
	}
	if rep.HitRate < askHitFloor {
		t.Errorf("hit rate %.3f, want at least %.2f", rep.HitRate, askHitFloor)
	}
	if rep.NoAnswer != 0 {
		t.Errorf("%d everyday questions found no passage", rep.NoAnswer)
	}
	if rep.Fallbacks != 0 {
		t.Errorf("%d fallbacks from the extractive generator", rep.Fallbacks)
	}
}
