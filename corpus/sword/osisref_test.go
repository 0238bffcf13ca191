package sword

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/selahdev/selah/corpus"
)

func TestScriptureRefs(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/osisrefs.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name, Raw     string
		Refs, Skipped []string
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			ids, skipped := ScriptureRefs(c.Raw)
			if want := expand(t, c.Refs...); !slices.Equal(ids, want) {
				t.Errorf("ids = %v, want %v", ids, want)
			}
			if !slices.Equal(skipped, c.Skipped) {
				t.Errorf("skipped = %q, want %q", skipped, c.Skipped)
			}
		})
	}
}

// expand returns the verse ids of references in the canonical form.
func expand(t *testing.T, refs ...string) []corpus.VerseID {
	t.Helper()
	var ids []corpus.VerseID
	for _, s := range refs {
		r, err := corpus.ParseReference(s)
		if err != nil {
			t.Fatalf("test reference %q: %v", s, err)
		}
		ids = slices.AppendSeq(ids, verseRange(r.First(), r.Last()))
	}
	return ids
}

// TestScriptureRefsNave reads references out of real Nave entries.
func TestScriptureRefsNave(t *testing.T) {
	t.Parallel()
	l := openNave(t)
	cases := []struct {
		key      string
		count    int      // distinct verses, or -1 for unchecked
		contains []string // some of them
		lacks    []string
	}{
		{"ABADDON", 1, []string{"Revelation 9:11"}, nil},
		// Ps 34:1-8 and Heb 11:1-39 are ranges, Jos 6 a whole chapter.
		{"FAITH", 1486, []string{"Psalms 34:1-8", "Hebrews 11:1-39", "Joshua 6", "Ephesians 2:8"}, nil},
		// ANXIETY only says "See CARE".
		{"ANXIETY", 0, nil, nil},
		{"CARE", -1, []string{"Matthew 6:25-34", "Philippians 4:6-7", "1 Peter 5:6-7"}, nil},
		// "2Jo 1:6-9" is linked as 2John.1.1 followed by the text ":6-9".
		{"OBEDIENCE", -1, []string{"2 John 1:6-9"}, []string{"2 John 1:1"}},
	}
	for _, c := range cases {
		t.Run(c.key, func(t *testing.T) {
			raw, err := l.Entry(c.key)
			if err != nil {
				t.Fatal(err)
			}
			ids, skipped := ScriptureRefs(raw)
			if len(skipped) > 0 {
				t.Errorf("skipped %q", skipped)
			}
			if c.count >= 0 && len(ids) != c.count {
				t.Errorf("%d verses, want %d", len(ids), c.count)
			}
			for _, id := range expand(t, c.contains...) {
				if _, ok := slices.BinarySearch(ids, id); !ok {
					t.Errorf("%s not found", id)
				}
			}
			for _, id := range expand(t, c.lacks...) {
				if _, ok := slices.BinarySearch(ids, id); ok {
					t.Errorf("%s found", id)
				}
			}
		})
	}
	// Across the module only a handful of references name no KJV verse:
	// Nave's own slips (Col.12.18 for 2 Cor 12:18, PrAzar.1.2).
	total, bad := 0, 0
	err := l.Each(func(key, raw string) error {
		ids, skipped := ScriptureRefs(raw)
		total += len(ids)
		bad += len(skipped)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total < 150_000 || bad > 40 {
		t.Errorf("%d verses and %d skipped references across Nave", total, bad)
	}
}
