package pipeline_test

import (
	"strings"
	"testing"

	"github.com/selahdev/selah/pipeline"
)

// TestComposerProduction composes from the production retriever, the
// whole of Nave's and the curated hubs, not the hand-built routes of
// naves(t): what an entry cites and how its phrase reads depend on how
// Nave's really lists it.
func TestComposerProduction(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := pipeline.NewAnswerer(b.st, b.r, nil)
	for _, tt := range []struct {
		q string
		// want: in the answer; ref: among the references; summary, when
		// set: in the summary.
		want, ref, summary string
	}{
		// "A priest and type of Christ" lists Hebrews 5:6, 5:10, 6:20 and
		// 7:1-21: the passage is Hebrews 7, not the first mention.
		{"Who was Melchizedek?", "a priest and type of Christ (Hebrews 7:1-3)", "Hebrews 7:1-3", ""},
		// The names of the feast ("Called — …") are one group of
		// siblings: one of them, then what happened.
		// The sentence of two clauses (what happened) leads and is the
		// summary, not the one naming the feast.
		{"What happened at Pentecost?", "the Holy Spirit given to the apostles on the first day of Pentecost (Acts 2:", "Acts 2:1-4", "Scripture tells of the Holy Spirit given"},
		// "King of Israel — A shepherd": the heading is not repeated.
		{"Who was David?", "David was a shepherd (1 Samuel 16:11)", "1 Samuel 16:11", ""},
		// "Goes to Bethlehem": the past tense of go is went (WordNet
		// lists gone too).
		{"Who was Ruth?", "Ruth was the daughter-in-law of Naomi (Ruth 1:4) and went to Bethlehem (Ruth 1:19)", "Ruth 1:19", ""},
		// An adverb before a past verb and a name: "Also called Saul".
		{"Who was Paul?", "Paul was also called Saul (Acts 8:1)", "Acts 8:1", ""},
		// A hub's summary is the sentence: its passage is the quotation,
		// not another verse that shares a word.
		{"Why is pride dangerous?", `Scripture says: "Pride goeth before destruction`, "Proverbs 16:18", ""},
		// A quotation made of stop words: the calibrated confidence alone
		// found it weak, and the answer declined.
		// LENDING's entry "General scriptures concerning" sorts its verses
		// and says nothing of lending: no "Lending was general
		// scriptures concerning".
		{"Should I lend money to a friend?", `"If thou lend money to any of my people`, "Exodus 22:25", ""},
		{"I can do all things", `"I can do all things through Christ which strengtheneth me" (Philippians 4:13)`, "Philippians 4:13", ""},
		// No fact or hub to say what the quotations answer: where Nave's
		// files them (GOD's entries list Genesis 6:17 among others) is the
		// answer's own sentence, and the summary stays a quotation. (Asked
		// why, a verse giving a reason answers: why.go.)
		{"Tell me about God sending the flood", "Nave's Topical Bible lists ", "Genesis 6:17", "In short: "},
	} {
		t.Run(tt.q, func(t *testing.T) {
			ans, err := a.Answer(b.ctx, tt.q, 5, pipeline.AnswerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkGrounded(t, b.st, ans, 5)
			checkSentences(t, ans)
			if !strings.Contains(ans.Text, tt.want) || strings.Contains(ans.Text, " — ") {
				t.Errorf("answer %q: want %q, and no outline dash", ans.Text, tt.want)
			}
			if l := strings.ToLower(ans.Text); strings.Contains(l, "general scriptures") || strings.Contains(l, "instances of") {
				t.Errorf("answer %q: a Nave's sorting heading became a sentence", ans.Text)
			}
			if !strings.HasPrefix(ans.Summary, tt.summary) {
				t.Errorf("summary %q: want it to open %q", ans.Summary, tt.summary)
			}
			var refs []string
			for _, r := range ans.References {
				refs = append(refs, r.Reference)
			}
			if !strings.Contains(strings.Join(refs, "; "), tt.ref) {
				t.Errorf("references %v lack %s", refs, tt.ref)
			}
		})
	}
}
