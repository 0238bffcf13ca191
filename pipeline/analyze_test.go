package pipeline

import (
	"slices"
	"testing"
)

func TestTerms(t *testing.T) {
	t.Parallel()
	an := analyzer{modern: map[string]string{"loveth": "love", "believeth": "believe"}}
	tests := []struct {
		name, text string
		want       []string
	}{
		{"stop words and stems", "For God so loved the world", []string{"god", "love", "world"}},
		{"archaic forms", "he that loveth thee hath believeth unto", []string{"love", "believ"}},
		{"possessive", "Am I my brother’s keeper?", []string{"brother", "keeper"}},
		{"negation", "Judge not; don't judge, no!", []string{"judg", "not", "not", "judg", "not"}},
		{"hyphen", "tender-hearted", []string{"tender", "heart", "tenderheart"}},
		{"digits and punctuation", "1 Cor 13:4, love!", []string{"cor", "love"}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			an.terms(tt.text, func(s string) { got = append(got, s) })
			if !slices.Equal(got, tt.want) {
				t.Errorf("terms(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestDeriveArchaic(t *testing.T) {
	t.Parallel()
	kjv := map[string]int{"loveth": 3, "setteth": 1, "crieth": 2, "hateth": 4, "knowest": 2, "lovedst": 1,
		"priest": 9, "seth": 1, "beast": 5, "saith": 7, "sitteth": 2, "believeth": 3, "faith": 4}
	modern := map[string]int{"love": 50, "set": 20, "cry": 10, "hate": 30, "hat": 1, "know": 99, "loved": 9,
		"priest": 8, "beast": 4, "say": 80, "sit": 12, "believe": 20, "faith": 9}
	got := deriveArchaic(kjv, modern)
	want := map[string]string{"loveth": "love", "setteth": "set", "crieth": "cry", "hateth": "hate",
		"knowest": "know", "lovedst": "loved", "saith": "say", "sitteth": "sit", "believeth": "believe"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s → %q, want %q", k, got[k], v)
		}
	}
	// Words the modern wording also uses are not archaic; short names are
	// left alone.
	for _, k := range []string{"priest", "beast", "seth", "faith"} {
		if m, ok := got[k]; ok {
			t.Errorf("%s → %q, want no mapping", k, m)
		}
	}
}
