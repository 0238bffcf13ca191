package pipeline_test

import (
	"strings"
	"testing"
)

// TestAnswerWhen: a question asking when is answered by the verse stating
// the event's time, found beside the verses telling the event, and the
// summary quotes the clause stating it.
func TestAnswerWhen(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tests := []struct {
		q, ref, says, summary string
	}{
		// The time is the days of a named king.
		{"when was jesus born", "Matthew 2:1", "Scripture tells when in Matthew 2:1.",
			`Scripture tells when in Matthew 2:1: "Now when Jesus was born in Bethlehem of Judaea in the days of Herod the king, behold, there came wise men from the east to Jerusalem…".`},
		// A year counted, in a verse the event's words ("temple") do not
		// find: the KJV builds "the house of the LORD".
		{"In what year of his reign did Solomon begin to build the temple?", "1 Kings 6:1", "fourth year of Solomon",
			`Scripture tells when in 1 Kings 6:1: "And it came to pass in the four hundred and eightieth year after the children of Israel were come out of the land of Egypt, in the fourth year of Solomon’s reign over Israel…".`},
		// An hour, in a verse that does not name him: the verses
		// before it do.
		{"what time was jesus crucified", "Mark 15:25", "third hour", ""},
	}
	for _, tt := range tests {
		ans := checkFirstSays(t, b, tt.q, tt.ref, tt.says)
		if tt.summary != "" && ans.Summary != tt.summary {
			t.Errorf("%q summary %q, want the clause stating the time quoted: %q", tt.q, ans.Summary, tt.summary)
		}
	}
	// An age: the verse naming the king, not another king's years.
	ans := b.ask(t, "How old was Ahaz when he began to reign?")
	if ans.NoPassage || !strings.Contains(strings.ToLower(ans.Summary), "twenty years old") {
		t.Errorf("summary %q, want 2 Kings 16:2 or 2 Chronicles 28:1 quoted", ans.Summary)
	}
	if ans := b.ask(t, "when was the declaration of independence signed"); !ans.NoPassage {
		t.Errorf("cites %v, want no passage", refs(ans))
	}
}
