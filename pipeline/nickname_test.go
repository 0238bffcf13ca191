package pipeline_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/selahdev/selah/corpus/topics"
	"github.com/selahdev/selah/pipeline"
)

// TestNicknamesUnwritten: the nicknames bridge only names the KJV never
// writes (with their article, when they are given one); a name it writes
// is found by the search of its text.
func TestNicknamesUnwritten(t *testing.T) {
	t.Parallel()
	b := setup(t)
	writes := pipeline.KJVWrites(b.r)
	for _, n := range topics.Nicknames() {
		for _, name := range n.Names() {
			// "the Shema" is asked with its article (Shema is a son of
			// Hebron); "the Flood" the KJV writes.
			if writes(name) {
				t.Errorf("%s: the KJV writes %q", n.Name, name)
			}
		}
	}
}

// TestAnswerNicknamed: a question asking about a name the KJV never
// writes, and nothing more, is answered from the passages cited for it,
// in their order, and says the name; one asking more of the name is
// asked as any question.
func TestAnswerNicknamed(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for q, want := range map[string][]string{
		"What is the Great Commission?":         {"Matthew 28:18-20", "Mark 16:15-16", "Acts 1:8"},
		"where are the beatitudes in the bible": {"Matthew 5:3-12"},
		"great commission kjv":                  {"Matthew 28:18-20"},
		// Asked with its article: Shema is also a son of Hebron.
		"What is the Shema?": {"Deuteronomy 6:4-9"},
		// A name's possessive and number as typed.
		"widows mites kjv": {"Mark 12:41-44"},
		// Words of the passage say which is meant.
		"what does the love chapter say about love": {"1 Corinthians 13"},
	} {
		ans, err := b.answerer(nil).Answer(t.Context(), q, 3, pipeline.AnswerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := refs(ans); len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
			t.Errorf("%q cites %v, want %v first", q, got, want)
		}
		if ans.NoPassage || !strings.HasPrefix(ans.Summary, "The ") || !strings.Contains(ans.Summary, want[0]) {
			t.Errorf("%q: summary %q names no nickname or %s", q, ans.Summary, want[0])
		}
		if !strings.HasPrefix(ans.Text, "For the ") {
			t.Errorf("%q: answer %q does not say the name its first passage is cited for", q, ans.Text)
		}
	}
	for q, not := range map[string]string{
		// More than the name: divorce in the sermon (Matthew 5:31-32).
		"What does the Sermon on the Mount say about divorce?": "Matthew 5:3-12",
		// No name: a verse's words.
		"blessed are the meek": "Matthew 5:3-12",
		// Without its article, the person.
		"Who was Shema?": "Deuteronomy 6:4-9",
	} {
		ans, err := b.answerer(nil).Answer(t.Context(), q, 3, pipeline.AnswerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := refs(ans); len(got) > 0 && got[0] == not {
			t.Errorf("%q cites %v, the nickname's", q, got)
		}
	}
}
