package pipeline_test

import "testing"

// TestAnswerReason: a why-question is answered by a verse giving the
// reason for the event, cited first and quoted; one about a thing the
// Bible does not speak of is declined. Written for the forty-fifth round
// in my own words, none of them a question of whydev.jsonl.
func TestAnswerReason(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tests := []struct {
		q, ref, says, summary string
	}{
		// The reason given beside the event, in the LORD's words.
		// The clause goes on in the next verse.
		{"why did god destroy sodom and gomorrah", "Genesis 18:20", "Scripture gives a reason in Genesis 18:20.",
			`Scripture gives a reason in Genesis 18:20: "…Because the cry of Sodom and Gomorrah is great, and because their sin is very grievous…".`},
		// A reason given far from the narrative it explains.
		// The clause ends the sentence.
		{"why did god create the world", "Revelation 4:11", "for thy pleasure they are and were created",
			`Scripture gives a reason in Revelation 4:11: "…for thou hast created all things, and for thy pleasure they are and were created".`},
	}
	for _, tt := range tests {
		ans := checkFirstSays(t, b, tt.q, tt.ref, tt.says)
		if ans.Summary != tt.summary {
			t.Errorf("%q summary %q, want the reason's clause quoted: %q", tt.q, ans.Summary, tt.summary)
		}
	}
	if ans := b.ask(t, "why is my wifi so slow"); !ans.NoPassage {
		t.Errorf("cites %v, want no passage", refs(ans))
	}
}
