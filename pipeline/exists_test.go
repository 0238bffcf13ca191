package pipeline_test

import (
	"testing"

	"github.com/selahdev/selah/store/storetest"
)

// TestAnswerExistence: a question asking whether the Bible speaks of a
// thing is answered from the thing, its frame left out: from the Nave's
// topic titled by it, from the alternative the corpus knows, and not
// declined because its verb names a topic of table manners.
func TestAnswerExistence(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tests := []struct {
		q    string
		want []string
	}{
		// CREMATION, not the verses holding "burn" or "talk".
		{"does scripture ever talk about cremation", []string{"Joshua 7:25", "1 Samuel 31:12", "2 Kings 23:20", "Amos 2:1", "Amos 6:10"}},
		// No verse writes "horoscopes"; ASTROLOGY, not SORCERY.
		{"is there a verse about horoscopes or astrology", []string{"Isaiah 47:13", "Daniel 2:27", "Daniel 4:7", "Jeremiah 10:2"}},
		// EATING's entries are table manners; BLOOD's verses forbid it.
		{"does the bible forbid eating blood", []string{"Genesis 9:4", "Leviticus 17:14", "Deuteronomy 12:23", "Acts 15:20"}},
	}
	for _, tt := range tests {
		ans := b.ask(t, tt.q)
		checkGrounded(t, b.st, ans, 3)
		if !citesAny(ans, storetest.Verses(t, tt.want...)) {
			t.Errorf("%q cites %v, want a verse of %s", tt.q, refs(ans), tt.want)
		}
	}
	for _, q := range []string{"does the bible mention pizza", "is there a verse about video games", "is yoga biblical"} {
		if ans := b.ask(t, q); !ans.NoPassage {
			t.Errorf("%q cites %v, want no passage", q, refs(ans))
		}
	}
}
