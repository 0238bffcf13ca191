package pipeline_test

import (
	"os"
	"strings"
	"testing"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/pipeline"
)

func TestDefaultEvalCases(t *testing.T) {
	t.Parallel()
	cases, err := pipeline.DefaultEvalCases()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 70 {
		t.Fatalf("%d cases, want at least 70", len(cases))
	}
	kinds := map[string]int{}
	seen := map[string]bool{}
	for _, c := range cases {
		kinds[c.Kind]++
		if seen[c.Query] {
			t.Errorf("duplicate query %q", c.Query)
		}
		seen[c.Query] = true
		if len(c.Hits) == 0 {
			t.Errorf("%q has no hits", c.Query)
		}
		for _, id := range c.Hits {
			if !id.Valid() {
				t.Errorf("%q: invalid verse %d", c.Query, id)
			}
		}
	}
	for _, k := range []string{pipeline.KindQuote, pipeline.KindParaphrase, pipeline.KindTopical} {
		if kinds[k] < 15 {
			t.Errorf("%d %s cases, want at least 15", kinds[k], k)
		}
	}
	if len(kinds) != 3 {
		t.Errorf("kinds %v", kinds)
	}
}

func TestReadEvalCases(t *testing.T) {
	t.Parallel()
	in := `{"query": "a", "kind": "quote", "hits": ["John 3:16", "Matthew 5:3-5"]}

{"query": "b", "kind": "topical", "hits": ["Jude 1:3"]}
`
	cases, err := pipeline.ReadEvalCases(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 || len(cases[0].Hits) != 4 || cases[0].Hits[3] != corpus.NewVerseID(40, 5, 5) {
		t.Fatalf("cases %+v", cases)
	}
	for _, bad := range []string{
		`{"query": "a", "kind": "quote", "hits": ["Hezekiah 1:1"]}`,
		`{"query": "a", "kind": "quote", "hits": []}`,
		`{"query": "", "kind": "quote", "hits": ["John 3:16"]}`,
		`not json`,
	} {
		if _, err := pipeline.ReadEvalCases(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

// TestHeldOut: the held-out sets, by name or by file, are the ones whose
// misses selah eval never prints, and each reads as a valid set.
func TestHeldOut(t *testing.T) {
	t.Parallel()
	for _, name := range pipeline.HoldoutSets {
		cases, err := pipeline.EvalSetCases(name)
		if err != nil || len(cases) < 150 {
			t.Errorf("%s: %d cases, %v; want at least 150", name, len(cases), err)
		}
	}
	for name, least := range map[string]int{"ask2": 120, "ask3": 120, "ask4": 120, "ask5": 60} {
		f, err := os.Open("testdata/eval/" + name + ".jsonl")
		if err != nil {
			t.Fatal(err)
		}
		cases, err := pipeline.ReadAskCases(f)
		f.Close()
		if err != nil || len(cases) < least {
			t.Errorf("%s: %d cases, %v; want at least %d", name, len(cases), err, least)
		}
	}
	for set, want := range map[string]bool{
		"holdout2": true, "holdout3": true, "ask2": true, "ask3": true,
		"pipeline/testdata/eval/holdout3.jsonl": true, "pipeline/testdata/eval/ask2.jsonl": true,
		"pipeline/testdata/eval/ask3.jsonl": true, "pipeline/testdata/eval/ask4.jsonl": true,
		"ask5": true, "pipeline/testdata/eval/ask5.jsonl": true,
		"pipeline/testdata/eval/moralhold.jsonl": true, "famoushold": true,
		"pipeline/testdata/eval/moraldev.jsonl": false,
		"search":                                false, "holdout": false, "persondev2": false, "pipeline/testdata/eval/askdev3.jsonl": false,
		"pipeline/testdata/eval/askdev4.jsonl":                                  false,
		"tuning set (built-in ask.jsonl, the offline composer was tuned on it)": false,
	} {
		if got := pipeline.HeldOut(set); got != want {
			t.Errorf("HeldOut(%q) = %v, want %v", set, got, want)
		}
	}
}
