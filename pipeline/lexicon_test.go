package pipeline_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/selahdev/selah/pipeline"
)

// TestAnswerWordMeaning: a question asking what a word means is answered
// from Strong's dictionary, with verses where the KJV translates the word;
// searched, "What does the name Abraham mean?" cited Genesis 21:29 ("What
// mean these seven ewe lambs") and "What does agape mean?" was declined.
func TestAnswerWordMeaning(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.answerer(nil)
	for _, tc := range []struct {
		question string
		words    []string       // the Strong's numbers of ans.Words, in order
		first    string         // the first reference, "" for any
		says     []string       // parts of the answer
		holds    *regexp.Regexp // what every cited passage's text holds
		books    [2]int         // the books the references lie in
	}{
		// A transliteration: every verse cited translates G26.
		{"What does agape mean?", []string{"G26"}, "", []string{"Agape is the Greek word ἀγάπη (agápē, Strong's G26)", "love, i.e. affection or benevolence"},
			regexp.MustCompile(`(?i)\b(love|charity)\b`), [2]int{40, 66}},
		// A name: where it is given, and what it means.
		{"What does the name Abraham mean?", []string{"H85"}, "Genesis 17:5", []string{"The name Abraham is the Hebrew אברהם ('abrâhâm, Strong's H85), meaning father of a multitude"},
			regexp.MustCompile(`Abraham`), [2]int{1, 66}},
		// An English word's originals, the language asked.
		{"What is the Greek word for love?", []string{"G26", "G25"}, "", []string{"Strong's G26", "Strong's G25"},
			regexp.MustCompile(`(?i)\blove`), [2]int{40, 66}},
		{"which hebrew word is translated mercy", nil, "", []string{"Strong's H2617"},
			regexp.MustCompile(`(?i)\bmercy\b`), [2]int{1, 39}},
		// An old KJV word, by the verses that write it.
		{"What does 'charity' mean in the King James Version?", []string{"G26"}, "", []string{"In the King James Version, charity translates the Greek word ἀγάπη"},
			regexp.MustCompile(`(?i)\bcharity\b`), [2]int{40, 66}},
		// A name the KJV hyphenates; Strong's "Mt. Moriah" keeps the
		// sentence whole for the grounding.
		{"What does Jehovah jireh mean?", []string{"H3070"}, "Genesis 22:14", []string{"The name Jehovah Jireh is the Hebrew", "Mt.\u00a0Moriah"},
			regexp.MustCompile(`Jehovah-jireh`), [2]int{1, 1}},
	} {
		ans, err := a.Answer(t.Context(), tc.question, 3, pipeline.AnswerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if ans.Fallback || ans.NoPassage || len(ans.References) == 0 {
			t.Errorf("%q: fallback %v (%s), declined %v, %d references", tc.question, ans.Fallback, ans.FallbackReason, ans.NoPassage, len(ans.References))
			continue
		}
		// The entries the answer explains are the API's words, each
		// whole.
		var nums []string
		for _, w := range ans.Words {
			nums = append(nums, w.Strongs)
			if w.Definition == "" || w.Transliteration == "" || len(w.Renderings) == 0 || w.KJVUses < 1 ||
				w.Language != map[byte]string{'G': "greek", 'H': "hebrew"}[w.Strongs[0]] || !strings.Contains(ans.Text, "Strong's "+w.Strongs) {
				t.Errorf("%q: word %+v is not whole, or not in the answer %q", tc.question, w, ans.Text)
			}
		}
		if tc.words != nil && !slices.Equal(nums, tc.words) {
			t.Errorf("%q: words %v, want %v", tc.question, nums, tc.words)
		}
		if tc.first != "" && ans.References[0].Reference != tc.first {
			t.Errorf("%q cites %s first, want %s", tc.question, ans.References[0].Reference, tc.first)
		}
		for _, s := range tc.says {
			if !strings.Contains(ans.Text, s) {
				t.Errorf("%q answered %q, want it to say %q", tc.question, ans.Text, s)
			}
		}
		for _, r := range ans.References {
			ids := r.VerseIDs()
			if !tc.holds.MatchString(r.Text) || ids[0].Book() < tc.books[0] || ids[0].Book() > tc.books[1] {
				t.Errorf("%q cites %s (%q), want a verse of books %v holding %s", tc.question, r.Reference, r.Text, tc.books, tc.holds)
			}
		}
	}
	// A curated hub's definition leads when its passage translates the
	// word, and Strong's follows.
	ans, err := a.Answer(t.Context(), "What does grace mean?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ans.Text, "Grace is ") || !strings.Contains(ans.Text, "Strong's G5485") ||
		len(ans.References) == 0 || ans.References[0].Reference != "Ephesians 2:8-9" {
		t.Errorf("What does grace mean? answered %q citing %+v", ans.Text, ans.References)
	}
	// A word Strong's does not know is searched as any question is.
	ans, err = a.Answer(t.Context(), "What does hallelujah mean?", 3, pipeline.AnswerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ans.Text, "Strong's") || ans.Words != nil {
		t.Errorf("hallelujah answered from Strong's: %q, words %+v", ans.Text, ans.Words)
	}
}
