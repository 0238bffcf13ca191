package pipeline_test

import (
	"strings"
	"testing"

	"github.com/selahdev/selah/pipeline"
)

// TestAnswerQuotation: a question about a quotation is answered by the
// verse holding the words, cited first, saying who speaks them when the
// text does; words a verse holds only nearly are said to be the nearest
// wording, and declined where nothing else speaks to them. Written for
// the forty-fourth round in my own words, none of them a question of
// quotedev.jsonl.
func TestAnswerQuotation(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tests := []struct {
		q, ref, says string
	}{
		// "And said" opens the verse; its subject opens the sentence in
		// the verse before, which is cited with it.
		{"who said the LORD gave, and the LORD hath taken away", "Job 1:20-21", "Job said these words, in Job 1:20-21."},
		// Spoken to: "Jesus said unto her".
		{"who said I am the resurrection and the life", "John 11:25", "Jesus said these words"},
		// "Then said Jesus": the verb before its subject.
		{"who said father forgive them for they know not what they do", "Luke 23:34", "Jesus said these words"},
		// The words as the KJV has them.
		{"what verse says a merry heart doeth good like a medicine", "Proverbs 17:22", "The words are found in Proverbs 17:22."},
		{"where does the bible say money is the root of all evil", "1 Timothy 6:10", "The words are found in 1 Timothy 6:10. The verse reads:"},
		// Other passages holding the words follow.
		{"which verse says my God, my God, why hast thou forsaken me", "Psalms 22:1", "Matthew 27:46 has them too"},
	}
	for _, tt := range tests {
		// The first reference is the verse, or its passage running on
		// (John 11:25-26, the next verse another reference of the search).
		checkFirstSays(t, b, tt.q, tt.ref, tt.says)
	}
	// Deuteronomy 33:26 holds "the heaven in thy help", nearly the words;
	// the question asked as any other finds nothing.
	if ans := b.ask(t, "which verse says heaven helps those who help themselves"); !ans.NoPassage {
		t.Errorf("cites %v, want no passage", refs(ans))
	}
}

// checkFirstSays asks q and checks that the grounded answer cites a
// reference opening with ref first and says says; it returns the answer.
func checkFirstSays(t *testing.T, b bundle, q, ref, says string) pipeline.Answer {
	t.Helper()
	ans := b.ask(t, q)
	checkGrounded(t, b.st, ans, 3)
	if len(ans.References) == 0 || !strings.HasPrefix(ans.References[0].Reference, ref) {
		t.Errorf("%q cites %v, want %s first", q, refs(ans), ref)
	}
	if !strings.Contains(ans.Text, says) {
		t.Errorf("%q answers %q, want it to say %q", q, ans.Text, says)
	}
	return ans
}
