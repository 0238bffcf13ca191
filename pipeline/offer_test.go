package pipeline_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/selahdev/selah/pipeline"
)

// TestAnswerOffered: a request for a verse for an occasion is answered
// from the key passages of the theme WordNet relates the occasion to, in
// the key list's order; one naming no occasion with a theme is answered
// as any question.
func TestAnswerOffered(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for q, want := range map[string][]string{
		// wedding: WordNet's synonym marriage (MARRIAGE).
		"I'm the best man and want to work a bible verse into my wedding toast": {"Genesis 2:24", "Matthew 19:4-6", "Ephesians 5:22-25"},
		// sympathy: "sharing the feelings of others (especially feelings
		// of sorrow or anguish)" (SORROW).
		"My coworker just lost her husband. What verse can I put in a sympathy card?": {"Psalms 34:18", "Matthew 5:4", "Revelation 21:4"},
		// Easter: "a Christian celebration of the Resurrection of
		// Christ" (RESURRECTION).
		"easter verses for our church bulletin": {"John 11:25-26", "1 Corinthians 15:20-22", "1 Corinthians 15:3-8"},
		// a baby: a broader term, child (CHILDREN).
		"Scripture to put in a new baby card for my neighbors?": {"Psalms 127:3-5", "Proverbs 22:6", "Ephesians 6:1-4"},
	} {
		ans, err := b.answerer(nil).Answer(t.Context(), q, 3, pipeline.AnswerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := refs(ans); !slices.Equal(got, want) {
			t.Errorf("%q cites %v, want %v", q, got, want)
		}
		if ans.NoPassage || !strings.Contains(ans.Summary, want[0]) {
			t.Errorf("%q: summary %q does not offer %s", q, ans.Summary, want[0])
		}
	}
}
