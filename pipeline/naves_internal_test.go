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
