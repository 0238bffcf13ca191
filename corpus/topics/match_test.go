package topics

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/selahdev/selah/corpus"
)

func TestMatch(t *testing.T) {
	b, err := os.ReadFile("testdata/match.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name, Question string
		Refs           []string
		N              int
		First          string   // slug of the best hub
		Contains       []string // slugs among the results
		Count          int      // number of results, when set
		None           bool     // no result at all
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var ids []corpus.VerseID
			for _, s := range c.Refs {
				r, err := corpus.ParseReference(s)
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, r.VerseIDs()...)
			}
			got := Match(c.Question, ids, c.N)
			var slugs []string
			for _, h := range got {
				slugs = append(slugs, h.Slug)
			}
			switch {
			case len(got) > max(c.N, 0):
				t.Errorf("%d results for n=%d", len(got), c.N)
			case c.None && len(got) > 0:
				t.Errorf("got %q, want none", slugs)
			case c.First != "" && (len(got) == 0 || slugs[0] != c.First):
				t.Errorf("got %q, want %s first", slugs, c.First)
			case c.Count > 0 && len(got) != c.Count:
				t.Errorf("got %q, want %d results", slugs, c.Count)
			}
			for _, s := range c.Contains {
				if !slices.Contains(slugs, s) {
					t.Errorf("got %q, want %s among them", slugs, s)
				}
			}
			// The same call gives the same answer.
			again := Match(c.Question, ids, c.N)
			for i := range again {
				if again[i].Slug != got[i].Slug {
					t.Fatalf("second call gave %s at %d, first %s", again[i].Slug, i, got[i].Slug)
				}
			}
		})
	}
}

func TestAnalyze(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"I am so Worried about TOMORROW!", []string{"worri", "tomorrow"}},
		{"the Lord’s Supper", []string{"lord", "supper"}},
		{"ex-wife, 'quoted'", []string{"ex", "wife", "quot"}},
		{"", nil},
	}
	for _, c := range cases {
		if got := analyze(c.in); !slices.Equal(got, c.want) {
			t.Errorf("analyze(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzMatch checks that no question panics the matcher or returns more
// than asked.
func FuzzMatch(f *testing.F) {
	for _, s := range []string{"", "worry", "'", "’s", "end of the world", "\xff\xfe", "a-b-c"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, q string, n int) {
		n %= 100
		if got := Match(q, nil, n); len(got) > max(n, 0) {
			t.Fatalf("%d results for n=%d", len(got), n)
		}
	})
}
