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
