package pipeline

import "testing"

// TestNaveSorting: Nave's headings that sort a topic's verses are never
// a sentence of an answer, the one that misspells its heading too.
func TestNaveSorting(t *testing.T) {
	t.Parallel()
	for phrase, want := range map[string]bool{
		"General scriptures concerning":       true,
		"UNCLASSIFIED SCRIPTURES RELATING TO": true,
		"UNCLASSIFIED SCIPTURES RELATING TO":  true, // GENTILES'
		"INSTANCES OF":                        true,
		"FIGURATIVE":                          true,
		"A sect of the Jews":                  false,
		"CONVERSION OF":                       false,
	} {
		if got := naveSorting(phrase); got != want {
			t.Errorf("naveSorting(%q) = %v, want %v", phrase, got, want)
		}
	}
}

// TestWithoutSeeHeadings: a parent that is a cross-reference is no part
// of what its children say; an entry's own "See" phrase stays.
func TestWithoutSeeHeadings(t *testing.T) {
	t.Parallel()
	for sense, want := range map[string]string{
		"1. The country of — See JOSEPH — Civil war in": "1. The country of — Civil war in",
		"See EGYPT — Bondage of the Israelites":         "Bondage of the Israelites",
		"See JOSEPH":          "See JOSEPH",
		"FAITH — Seeking God": "FAITH — Seeking God",
	} {
		if got := withoutSeeHeadings(sense); got != want {
			t.Errorf("withoutSeeHeadings(%q) = %q, want %q", sense, got, want)
		}
	}
}

// TestBookAsked: a book is asked for in English's frames, by its
// canonical name; elsewhere its name is a word of the question.
func TestBookAsked(t *testing.T) {
	t.Parallel()
	cases := []struct {
		q, book, rest string
	}{
		{"What does Proverbs say about fools?", "Proverbs", "What does about fools?"},
		{"What does the book of Psalms teach about fear?", "Psalms", "What does about fear?"},
		{"verses in psalms about trusting god", "Psalms", "verses about trusting god"},
		{"What does 1 Corinthians say about love?", "1 Corinthians", "What does about love?"},
		{"Who was Barnabas in the book of Acts?", "Acts", "Who was Barnabas"},
		{"what is faith according to Hebrews", "Hebrews", "what is faith"},
		{"What does the Bible say about Job's suffering?", "", ""},
		{"how many psalms are there", "", ""},
		{"is there strength in numbers", "", ""},
		{"What did Paul say about love?", "", ""},
		{"what does am i say", "", ""}, // "Am" is Amos only abbreviated
	}
	for _, c := range cases {
		b, rest, ok := bookAsked(c.q, nil)
		if ok != (c.book != "") || ok && (b.Name != c.book || rest != c.rest) {
			t.Errorf("bookAsked(%q) = %q, %q, %v; want %q, %q", c.q, b.Name, rest, ok, c.book, c.rest)
		}
	}
}
