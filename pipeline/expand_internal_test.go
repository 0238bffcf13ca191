package pipeline

import (
	"slices"
	"testing"

	"github.com/selahdev/selah/pipeline/wordvec"
)

// TestRelatedAtCollocation: a word opening a collocation WordNet knows is
// expanded as the collocation ("passed away": die), inflected as typed;
// the same word in free use keeps its own relatives.
func TestRelatedAtCollocation(t *testing.T) {
	t.Parallel()
	wn, err := OpenWordNet(DefaultWordNetDir)
	if err != nil {
		t.Fatalf("open WordNet (run deploy/setup.sh): %v", err)
	}
	e := NewWordNetExpander(wn)
	words := func(rels []Related) []string {
		var out []string
		for _, r := range rels {
			out = append(out, r.Word)
		}
		return out
	}
	for _, tt := range []struct {
		text string
		k    int
		want string
		not  bool
	}{
		{"my mom passed away last week", 2, "die", false},
		{"got laid off today", 1, "furlough", false},
		{"a panic attack on the highway", 1, "fear", false},
		{"he passed the bread", 1, "die", true},
	} {
		got := words(relatedAt(e, wordvec.Tokens(tt.text), tt.k))
		if slices.Contains(got, tt.want) == tt.not {
			t.Errorf("relatedAt(%q, %d) = %q: want %q among them: %v", tt.text, tt.k, got, tt.want, !tt.not)
		}
	}
}

// TestRelatedSimilar: an adjective satellite is expanded to the head it
// narrows at a synonym's weight ("unforgivable": "unpardonable").
func TestRelatedSimilar(t *testing.T) {
	t.Parallel()
	wn, err := OpenWordNet(DefaultWordNetDir)
	if err != nil {
		t.Fatalf("open WordNet (run deploy/setup.sh): %v", err)
	}
	for _, r := range NewWordNetExpander(wn).Related("unforgivable") {
		if r.Word == "unpardonable" {
			if r.Weight != wordNetSynonym {
				t.Errorf("unpardonable at %v, want %v", r.Weight, wordNetSynonym)
			}
			return
		}
	}
	t.Error("Related(unforgivable) lacks unpardonable")
}
