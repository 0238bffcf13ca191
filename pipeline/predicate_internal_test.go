package pipeline

import (
	"slices"
	"testing"
)

func TestPredicateWords(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"Is laziness a sin?", []string{"sin"}},
		{"Is it a sin to be jealous of others?", []string{"sin"}},
		{"Are tattoos a sin?", []string{"sin"}},
		{"is it a sin to lie to a friend", []string{"sin"}},
		{"Is looking at a woman with lust a sin according to Jesus?", []string{"sin"}},
		{"I put everything off. Is procrastination really a grave sin?", []string{"grave", "sin"}},
		{"Is there a God?", nil},
		{"Is Jesus the son of God?", nil},
		{"Is it wrong to be angry?", nil},
		{"What is a covenant?", nil},
		{"Is it a", nil},
		{"Is stealing a sin even if it's something small?", []string{"sin"}},
		{"Is it ever OK to tell a white lie to spare someone's feelings?", nil},
		{"Is it ever a sin to lie?", []string{"sin"}},
		{"What is God like? Is he a God of love or a God of wrath?", nil},
		{"Is Jesus actually God or was he just a good teacher and prophet?", nil},
		{"is 5 or 6 beers every night a problem?", []string{"problem"}},
	} {
		if got := predicateWords(c.q); !slices.Equal(got, c.want) {
			t.Errorf("predicateWords(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}
