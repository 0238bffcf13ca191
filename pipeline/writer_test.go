package pipeline_test

import (
	"strings"
	"testing"

	"github.com/selahdev/selah/pipeline"
)

// TestNamedWriter reads the openings of books on the real corpus: whom
// each names as its writer, in its own words, and the books whose text
// names no one.
func TestNamedWriter(t *testing.T) {
	t.Parallel()
	r := setup(t).r
	for _, c := range []struct {
		question, ref, name string // ref "": the opening names no one
	}{
		{"Who wrote Romans?", "Romans 1:1", "Paul"},
		{"Who wrote Philippians?", "Philippians 1:1", "Paul"}, // "Paul and Timotheus"
		{"Who wrote 2 Peter?", "2 Peter 1:1", "Peter"},        // "Simon Peter, a servant"
		{"Who wrote Jude?", "Jude 1:1", "Jude"},               // a name only at a verse's start
		{"Who wrote Revelation?", "Revelation 1:4", "John"},   // not 1:1's "The Revelation of Jesus Christ"
		{"Who wrote Amos?", "Amos 1:1", "Amos"},
		{"Who wrote Habakkuk?", "Habakkuk 1:1", "Habakkuk"}, // "The burden which Habakkuk", not 1:2's "O LORD"
		{"Who wrote Malachi?", "Malachi 1:1", "Malachi"},    // "... to Israel by Malachi"
		{"Who wrote Ezekiel?", "Ezekiel 1:3", "Ezekiel"},
		{"Who wrote Ecclesiastes?", "Ecclesiastes 1:1", "the Preacher"}, // not "the son of David"
		{"Who wrote Proverbs 31?", "Proverbs 31:1", "Lemuel"},           // "The words of king Lemuel"
		{"Who wrote Proverbs 30?", "Proverbs 30:1", "Agur"},             // a name the KJV writes once
		{"Who wrote Psalm 23?", "Psalms 23:1", "David"},                 // its title
		{"Who wrote Psalm 90?", "Psalms 90:1", "Moses"},                 // the title, not the text's "Lord,"
		{"Who wrote Hebrews?", "", ""},
		{"Who wrote Genesis?", "", ""},
		{"Who wrote Exodus?", "", ""},       // "Reuben, Simeon, Levi" lists sons
		{"Who wrote 1 Chronicles?", "", ""}, // "Adam, Sheth, Enosh"
		{"Who wrote Matthew?", "", ""},      // "The book of the generation of Jesus Christ"
		{"Who wrote Mark?", "", ""},         // "The beginning of the gospel of Jesus Christ"
		{"Who wrote Joshua?", "", ""},       // "after the death of Moses"
		{"Who wrote Nahum?", "", ""},        // "The burden of Nineveh": a place
		{"Who wrote Psalm 42?", "", ""},     // "for the sons of Korah"
		{"Who wrote 2 Samuel?", "", ""},     // "Now it came to pass after the death of Saul"
	} {
		ref, name, asked, ok := pipeline.NamedWriter(r, c.question)
		if !asked || ok != (c.ref != "") || ok && (ref != c.ref || name != c.name) {
			t.Errorf("%q: %s %q (asked %v, named %v), want %s %q", c.question, ref, name, asked, ok, c.ref, c.name)
		}
	}
}

// TestAnswerWriter answers who wrote a book from its opening, and
// declines where the book's text names no writer, rather than quote
// verses that share the question's words.
func TestAnswerWriter(t *testing.T) {
	t.Parallel()
	a := setup(t).answerer(nil)
	for _, c := range []struct {
		question, ref string
		says          []string
	}{
		{"Who wrote the book of Romans?", "Romans 1:1", []string{"The book of Romans opens with the name of Paul (Romans 1:1).",
			`Romans 1:1 reads: "Paul, a servant of Jesus Christ`}},
		{"who wrote revelation", "Revelation 1:4", []string{"The book of Revelation names John as its sender in its opening (Revelation 1:4)."}},
		// A psalm's title, quoted: the grounding reads titles as Scripture.
		{"Who wrote Psalm 51?", "Psalms 51:1", []string{`The title of Psalm 51 names David: "To the chief Musician, A Psalm of David, when Nathan the prophet came unto him`}},
		{"Who wrote Hebrews?", "", nil},
		{"Who is the author of Genesis?", "", nil},
	} {
		ans, err := a.Answer(t.Context(), c.question, 5, pipeline.AnswerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if c.ref == "" {
			if !ans.NoPassage || len(ans.References) != 0 || ans.Text != pipeline.NoPassageText {
				t.Errorf("%q: %q citing %v, want a decline", c.question, ans.Text, ans.References)
			}
			continue
		}
		if ans.Fallback || ans.NoPassage || len(ans.References) != 1 || ans.References[0].Reference != c.ref {
			t.Errorf("%q: fallback %v (%s), declined %v, references %v; want %s alone", c.question, ans.Fallback, ans.FallbackReason,
				ans.NoPassage, ans.References, c.ref)
			continue
		}
		for _, s := range c.says {
			if !strings.Contains(ans.Text, s) {
				t.Errorf("%q answered %q, want it to say %q", c.question, ans.Text, s)
			}
		}
		if ans.Summary == "" || !strings.Contains(ans.Text, ans.Summary) {
			t.Errorf("%q: summary %q", c.question, ans.Summary)
		}
	}
}
