package pipeline

import (
	"slices"
	"testing"
)

// TestSpellingVariants: WordNet's other spelling of a word is a lemma of
// its synsets one edit away that has every sense it has; a synonym, a
// near word of one shared sense, an inflection and a word of two readings
// have none.
func TestSpellingVariants(t *testing.T) {
	t.Parallel()
	wn, err := OpenWordNet(DefaultWordNetDir)
	if err != nil {
		t.Fatal(err)
	}
	for w, want := range map[string][]string{
		"neighbour":  {"neighbor"},
		"neighbours": {"neighbor"}, // read as its base form
		"labour":     {"labor"},    // four senses, all among labor's seven
		"judgement":  {"judgment"},
		"honour":     {"honor"},
		"car":        nil, // "auto" is a synonym, not a spelling
		"queer":      nil, // shares one noun sense with "queen", and its adjective none
		"cleaning":   nil, // the noun, and the verb clean
		"grateful":   nil, // "grate" shares no synset
		"temper":     nil,
	} {
		if got := spellingVariants(wn, w); !slices.Equal(got, want) {
			t.Errorf("spellingVariants(%q) = %q, want %q", w, got, want)
		}
	}
}
