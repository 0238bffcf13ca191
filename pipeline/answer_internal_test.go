package pipeline

import (
	"testing"

	"github.com/selahdev/selah/corpus"
)

// TestAskedSentences: the part of a question that asks is its sentences
// ending in "?", only when others tell a story besides.
func TestAskedSentences(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ q, want string }{
		{"People at work mock me for my faith. What did Jesus say about being persecuted?", "What did Jesus say about being persecuted?"},
		{"How do I stop worrying about money? We're two months behind on rent.", "How do I stop worrying about money?"},
		{"Is it wrong? Why? My friend says so.", "Is it wrong? Why?"},
		{"My dad died and I can't stop crying", "My dad died and I can't stop crying"},
		{"Who was Ruth? Whom did she marry?", "Who was Ruth? Whom did she marry?"},
		{"I feel so alone. Nobody would notice if I disappeared.", "I feel so alone. Nobody would notice if I disappeared."},
		{"I lost my job... what now?", "what now?"},
		{"?!", "?!"},
	} {
		if got := askedSentences(tt.q); got != tt.want {
			t.Errorf("askedSentences(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}

// TestFuseHits: a verse both rankings hold rises above one only a single
// ranking holds first, each verse once, cut at n.
func TestFuseHits(t *testing.T) {
	t.Parallel()
	hits := func(ids ...corpus.VerseID) []Hit {
		var out []Hit
		for _, id := range ids {
			out = append(out, Hit{Verse: corpus.Verse{ID: id}})
		}
		return out
	}
	got := fuseHits(hits(1, 2, 3), hits(4, 2, 5), 4)
	var ids []corpus.VerseID
	for _, h := range got {
		ids = append(ids, h.Verse.ID)
	}
	want := []corpus.VerseID{2, 1, 4, 3}
	if len(ids) != len(want) {
		t.Fatalf("fused %v, want %v", ids, want)
	}
	for i := range want {
		if ids[i] != want[i] {
			t.Fatalf("fused %v, want %v", ids, want)
		}
	}
}

// TestReachOf: a theme holds an expected verse only among the first n
// verses of its teaching, the verses an answer cites; the chosen theme
// counts as holding only when it is one that does.
func TestReachOf(t *testing.T) {
	t.Parallel()
	routes := func(ids ...corpus.VerseID) []Routed {
		var out []Routed
		for _, id := range ids {
			out = append(out, Routed{Verse: id})
		}
		return out
	}
	th := themeResult{pool: [][]Routed{routes(1, 2, 3, 4), routes(5, 6)}, chosen: 0}
	for _, tt := range []struct {
		expect []corpus.VerseID
		n      int
		want   ThemeReach
	}{
		{[]corpus.VerseID{3}, 3, ThemeReach{Chosen: true, Best: true}},
		{[]corpus.VerseID{4}, 3, ThemeReach{}},
		{[]corpus.VerseID{4}, 4, ThemeReach{Chosen: true, Best: true}},
		{[]corpus.VerseID{6}, 3, ThemeReach{Best: true}},
		{[]corpus.VerseID{9}, 3, ThemeReach{}},
	} {
		if got := reachOf(th, tt.expect, tt.n); got != tt.want {
			t.Errorf("reachOf(%v, %d) = %+v, want %+v", tt.expect, tt.n, got, tt.want)
		}
	}
	th.chosen = -1
	if got := reachOf(th, []corpus.VerseID{1}, 3); got != (ThemeReach{Best: true}) {
		t.Errorf("no theme answered: %+v, want only Best", got)
	}
}
