package pipeline

import (
	"slices"
	"testing"
)

// TestOfferOccasion: the words a request for a verse names its occasion
// by, most likely first; the medium (a card, a toast's bread, an
// announcement) is none, the person it is for comes last, and a question
// asking about a passage or asking for no verse is no request.
func TestOfferOccasion(t *testing.T) {
	t.Parallel()
	wn, err := OpenWordNet(DefaultWordNetDir)
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string][]string{
		"a good verse for a wedding card?":                      {"wedding"},
		"easter verses for our church bulletin":                 {"easter", "church"},
		"birthday card verse for a friend, kjv please":          {"birthday", "friend*"},
		"verse for a mothers day card for my mom":               {"mother's day", "mom*"},
		"Scripture to put in a new baby card for my neighbors?": {"new", "baby*", "neighbors*"},
		"kjv verse for my son's high school graduation":         {"graduation", "high school", "son*"},
		"what is the meaning of the suffering servant passage":  {},
		"verses to comfort someone whose mother passed away":    {},
	} {
		words, ok := offerOccasion(wn, q)
		if !ok {
			t.Errorf("offerOccasion(%q) asks for no verse", q)
			continue
		}
		got := []string{}
		for _, w := range words {
			if w.person {
				w.word += "*"
			}
			got = append(got, w.word)
		}
		if !slices.Equal(got, want) {
			t.Errorf("offerOccasion(%q) = %q, want %q", q, got, want)
		}
	}
	if _, ok := offerOccasion(wn, "What does the Bible say about weddings?"); ok {
		t.Error("a question asking for no verse is an offer request")
	}
}
