package pipeline_test

import (
	"slices"
	"testing"

	"github.com/selahdev/selah/pipeline"
)

// The questions below are my own, written for the forty-seventh round;
// none is a question of fatedev.jsonl or fatehold.jsonl.

// TestFateQuestion: the frames a question about a person's end is put
// in, what it asks (the root: die or bury) and of whom.
func TestFateQuestion(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tests := []struct {
		q        string
		roots    []string
		person   []string
		kin      string
		unknown  bool
		happened bool
	}{
		{"How did King Saul die?", []string{"die"}, []string{"saul"}, "", false, false},
		{"who murdered abel", []string{"die"}, []string{"abel"}, "", false, false},
		{"Where was Sarah buried?", []string{"bury"}, []string{"sarah"}, "", false, false},
		{"what happened to lot's wife", []string{"die"}, []string{"lot"}, "wife", false, true},
		{"how did judas iscariot die", []string{"die"}, []string{"judas", "iscariot"}, "", false, false},
		{"how was benhadad killed", []string{"die"}, []string{"benhadad"}, "", false, false},
		// The end of the verb's object, not its subject's.
		{"where did jacob bury rachel", []string{"bury"}, []string{"rachel"}, "", false, false},
		// Two names the Bible gives, never together; a name it does not.
		{"how did julius caesar die", []string{"die"}, []string{"julius"}, "", true, false},
		{"How did Napoleon die?", []string{"die"}, nil, "", true, false},
	}
	for _, tt := range tests {
		roots, person, kin, unknown, happened, ok := pipeline.FateQuestion(b.r, tt.q)
		if !ok || !slices.Equal(roots, tt.roots) || !slices.Equal(person, tt.person) || kin != tt.kin || unknown != tt.unknown || happened != tt.happened {
			t.Errorf("FateQuestion(%q) = %v %v %q unknown %v happened %v ok %v, want %v %v %q unknown %v happened %v", tt.q,
				roots, person, kin, unknown, happened, ok, tt.roots, tt.person, tt.kin, tt.unknown, tt.happened)
		}
	}
	for _, q := range []string{
		"How do I cope with grief when someone I love dies?",
		"Why did Jesus die on the cross?",
		"What does the Bible say about death?",
		"who was king david's father",
		"what happened when moses struck the rock",
		"Pharaoh who killed the baby boys - what was his name?",
	} {
		if roots, person, _, _, _, ok := pipeline.FateQuestion(b.r, q); ok {
			t.Errorf("FateQuestion(%q) = %v %v, want no question about a person's end", q, roots, person)
		}
	}
}

// TestAnswerFate: a question about a person's end is answered from the
// person's Nave's entry telling it, narrowed to the verses saying it, of
// the bearer asked about; a person the Bible does not name is declined.
func TestAnswerFate(t *testing.T) {
	t.Parallel()
	b := setup(t)
	// SAUL's "Is defeated, and is killed with some of his sons" (1 Samuel
	// 31), not "Kills the Gibeonites", where he kills.
	checkFirstSays(t, b, "How did King Saul die?", "1 Samuel 31:", "Saul was defeated, and was killed with some of his sons")
	// JUDAS 1, Iscariot, "Hangs himself"; not JUDAS 2, a brother of Jesus.
	checkFirstSays(t, b, "how did judas die", "Matthew 27:5", "Judas hung himself")
	// "Abraham buried Sarah his wife": Sarah's burial, not Abraham's.
	checkFirstSays(t, b, "Where was Sarah buried?", "Genesis 23:19", "burial of Sarah")
	checkFirstSays(t, b, "what happened to lot's wife", "Genesis 19:26", "what became of Lot's wife")
	for _, q := range []string{"How did Napoleon die?", "how did julius caesar die"} {
		if ans := b.ask(t, q); !ans.NoPassage {
			t.Errorf("%q cites %v, want no passage", q, refs(ans))
		}
	}
}
