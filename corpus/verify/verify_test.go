package verify_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/corpus/verify"
	"github.com/selahdev/selah/store/storetest"
)

// The index is built once per test binary from the real corpus (a copy of
// the ingested template database).
var (
	indexOnce sync.Once
	index     *verify.Index
	verses    []verify.Text
)

func kjv(t testing.TB) (*verify.Index, []verify.Text) {
	t.Helper()
	indexOnce.Do(func() {
		st := storetest.NewCorpusStore(t)
		rows, err := st.IndexTexts(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			verses = append(verses, verify.Text{ID: r.ID, KJV: r.Text, WEB: r.WebText})
		}
		index = verify.New(verses)
	})
	if index == nil {
		t.Fatal("the index could not be built")
	}
	return index, verses
}

func ref(t testing.TB, s string) *corpus.Reference {
	t.Helper()
	r, err := corpus.ParseReference(s)
	if err != nil {
		t.Fatal(err)
	}
	return &r
}

func TestVerifyCases(t *testing.T) {
	t.Parallel()
	ix, _ := kjv(t)
	for _, tc := range []struct {
		name, quote, claimed string
		level                verify.Level
		found                string
		holds                bool
	}{
		{"exact verse", "For God so loved the world, that he gave his only begotten Son, that whosoever believeth in him should not perish, but have everlasting life.", "John 3:16", verify.Exact, "John 3:16", true},
		{"misattributed is traced", "For God so loved the world…", "John 3:17", verify.Exact, "John 3:16", false},
		{"case and punctuation", "for god so loved the world that he gave his only begotten son", "", verify.Normalized, "John 3:16", false},
		{"old spelling", "I will show thee my faith by my works", "", verify.Normalized, "James 2:18", false},
		{"old spelling in an inflection", "he showed me a pure river of water of life", "", verify.Normalized, "Revelation 22:1", false},
		{"modern grammar is not normalized", "God so loved the world, that he gave his only begotten Son, that whosoever believes in him should not perish", "", verify.Partial, "John 3:16", false},
		{"word dropped", "The LORD is my shepherd; I shall not", "", verify.Exact, "Psalms 23:1", false},
		{"word dropped inside", "The LORD is shepherd; I shall not want.", "Psalm 23", verify.Partial, "Psalms 23:1", true},
		{"across two verses", "Jesus wept. Then said the Jews, Behold how he loved him!", "", verify.Exact, "John 11:35-36", false},
		{"not in the Bible", "God helps those who help themselves", "", verify.None, "", false},
		{"one word is no quote", "love", "", verify.None, "", false},
		{"empty", "  ", "", verify.None, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var claimed *corpus.Reference
			if tc.claimed != "" {
				claimed = ref(t, tc.claimed)
			}
			got := ix.Verify(tc.quote, claimed)
			if got.Level != tc.level || got.Found.String() != tc.found || got.ClaimedHolds != tc.holds {
				t.Errorf("Verify(%q, %q) = %s at %q (holds %v, similarity %.3f); want %s at %q (holds %v)",
					tc.quote, tc.claimed, got.Level, got.Found, got.ClaimedHolds, got.Similarity, tc.level, tc.found, tc.holds)
			}
			if (got.Level == verify.None) != (got.Text == "") {
				t.Errorf("text %q with level %s", got.Text, got.Level)
			}
		})
	}
}

// TestLearnedVariants: the spellings learned from the KJV and WEB include
// the well-known ones and no grammar.
func TestLearnedVariants(t *testing.T) {
	t.Parallel()
	ix, _ := kjv(t)
	v := ix.Variants()
	for old, modern := range map[string]string{"shew": "show", "labour": "labor", "saviour": "savior", "honour": "honor"} {
		if v[old] != modern {
			t.Errorf("variant of %q = %q, want %q", old, v[old], modern)
		}
	}
	for old, modern := range v {
		if strings.HasSuffix(old, "eth") || strings.HasSuffix(old, "est") || old == "thee" || old == "thou" {
			t.Errorf("grammar learned as spelling: %q -> %q", old, modern)
		}
	}
	if len(v) < 10 {
		t.Errorf("only %d variants learned: %v", len(v), v)
	}
}

// evalCase is one quotation of the evaluation set.
type evalCase struct {
	kind    string // "quote", "misattributed", "saying"
	quote   string
	claimed *corpus.Reference
	want    verify.Level
	source  int // index of the verse the quote was drawn from; -1 for sayings
}

// evalSet is the measurement set: 200 quotations drawn from the
// corpus with light edits, 50 misattributed quotations and the 50 sayings
// of testdata/sayings.txt. Drawn with a fixed seed, so it is the same set
// on every run.
func evalSet(t testing.TB, vs []verify.Text) []evalCase {
	t.Helper()
	rng := rand.New(rand.NewPCG(16, 2026))
	var set []evalCase
	for len(set) < 200 {
		i := rng.IntN(len(vs))
		ws := strings.Fields(vs[i].KJV)
		if len(ws) < 6 {
			continue
		}
		n := min(len(ws), 6+rng.IntN(15))
		start := rng.IntN(len(ws) - n + 1)
		frag := ws[start : start+n]
		c := evalCase{kind: "quote", source: i}
		switch len(set) % 4 {
		case 0:
			c.quote, c.want = strings.Join(frag, " "), verify.Exact
		case 1:
			s := strings.Join(frag, " ")
			c.quote = strings.ToLower(s)
			if c.quote == s {
				c.quote = strings.ToUpper(s)
			}
			c.want = verify.Normalized
		case 2:
			s := strings.Join(frag, " ")
			c.quote = strings.Map(func(r rune) rune {
				if unicode.IsPunct(r) {
					return -1
				}
				return r
			}, s)
			if c.quote == s || strings.TrimRightFunc(s, unicode.IsPunct) == c.quote {
				// Nothing to remove inside: add a comma instead.
				c.quote = strings.Join(frag[:2], " ") + ", " + strings.Join(frag[2:], " ")
			}
			c.want = verify.Normalized
		case 3:
			j := 1 + rng.IntN(len(frag)-2)
			c.quote = strings.Join(append(append([]string{}, frag[:j]...), frag[j+1:]...), " ")
			c.want = verify.Partial
		}
		set = append(set, c)
	}
	for m := 0; m < 50; {
		i := rng.IntN(len(vs))
		ws := strings.Fields(vs[i].KJV)
		if len(ws) < 8 {
			continue
		}
		// The claim is a nearby verse, as a misremembered reference usually is.
		j := i + []int{-3, -2, -1, 1, 2, 3}[rng.IntN(6)]
		if j < 0 || j >= len(vs) || vs[j].KJV == vs[i].KJV {
			continue
		}
		b, _ := corpus.BookByNumber(vs[j].ID.Book())
		claimed := corpus.Reference{Book: b, StartChapter: vs[j].ID.Chapter(), StartVerse: vs[j].ID.Verse(),
			EndChapter: vs[j].ID.Chapter(), EndVerse: vs[j].ID.Verse()}
		q := strings.Join(ws[:max(8, len(ws)*2/3)], " ")
		want := verify.Exact
		if m%2 == 1 {
			q, want = strings.ToLower(q), verify.Normalized
		}
		set = append(set, evalCase{kind: "misattributed", quote: q, claimed: &claimed, want: want, source: i})
		m++
	}
	f, err := os.Open("testdata/sayings.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" && !strings.HasPrefix(s, "#") {
			set = append(set, evalCase{kind: "saying", quote: s, want: verify.None, source: -1})
		}
	}
	return set
}

// evalOutcome scores one case.
type evalOutcome struct {
	levelOK, placeOK, claimOK bool
	got                       verify.Level
}

func score(ix *verify.Index, vs []verify.Text, c evalCase) evalOutcome {
	r := ix.Verify(c.quote, c.claimed)
	o := evalOutcome{got: r.Level, levelOK: r.Level == c.want, claimOK: true}
	if c.source < 0 {
		o.placeOK = r.Found.Book.Number == 0
		return o
	}
	// The place is right when it holds the source verse, or is text that
	// holds the quote as well as the source verse does (a phrase the KJV
	// repeats word for word).
	if r.Found.Contains(vs[c.source].ID) {
		o.placeOK = true
	} else if r.Level != verify.None {
		alone := ix.Verify(c.quote, &corpus.Reference{Book: mustBook(vs[c.source].ID), StartChapter: vs[c.source].ID.Chapter(),
			StartVerse: vs[c.source].ID.Verse(), EndChapter: vs[c.source].ID.Chapter(), EndVerse: vs[c.source].ID.Verse()})
		o.placeOK = alone.Similarity <= r.Similarity
	}
	if c.claimed != nil {
		o.claimOK = !r.ClaimedHolds
	}
	return o
}

func mustBook(id corpus.VerseID) corpus.Book {
	b, _ := corpus.BookByNumber(id.Book())
	return b
}

// TestVerifyEvaluation measures the set and holds the verifier to
// thresholds set before the first run: 90% of levels right, 95% of the
// places of quotes found right, every misattribution traced and none of
// its claims confirmed, and at least 45 of the 50 sayings refused. The
// confusion table is logged (go test -v -run TestVerifyEvaluation).
func TestVerifyEvaluation(t *testing.T) {
	t.Parallel()
	ix, vs := kjv(t)
	set := evalSet(t, vs)
	levels := []verify.Level{verify.Exact, verify.Normalized, verify.Partial, verify.None}
	confusion := map[[2]verify.Level]int{}
	var levelOK, placeOK, placed, sayingsNone, traced, claimsRefused, misattributed int
	for _, c := range set {
		o := score(ix, vs, c)
		confusion[[2]verify.Level{c.want, o.got}]++
		if o.levelOK {
			levelOK++
		}
		if c.source >= 0 {
			placed++
			if o.placeOK {
				placeOK++
			}
		}
		switch c.kind {
		case "saying":
			if o.got == verify.None && o.placeOK {
				sayingsNone++
			}
		case "misattributed":
			misattributed++
			if o.placeOK && o.got != verify.None {
				traced++
			}
			if o.claimOK {
				claimsRefused++
			}
		}
		if !o.levelOK || !o.placeOK || !o.claimOK {
			t.Logf("miss (%s): %q claimed %v: want %s, got %s", c.kind, c.quote, c.claimed, c.want, o.got)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n| expected \\ got | exact | normalized | partial | none |\n|---|--:|--:|--:|--:|\n")
	for _, w := range levels {
		fmt.Fprintf(&b, "| %s |", w)
		for _, g := range levels {
			fmt.Fprintf(&b, " %d |", confusion[[2]verify.Level{w, g}])
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "levels right %d/%d; places right %d/%d; misattributions traced %d/%d, claims refused %d/%d; sayings none %d/50\n",
		levelOK, len(set), placeOK, placed, traced, misattributed, claimsRefused, misattributed, sayingsNone)
	t.Log(b.String())
	if len(set) != 300 {
		t.Fatalf("the set has %d cases, want 300", len(set))
	}
	if levelOK*100 < 90*len(set) {
		t.Errorf("levels right %d/%d, want at least 90%%", levelOK, len(set))
	}
	if placeOK*100 < 95*placed {
		t.Errorf("places right %d/%d, want at least 95%%", placeOK, placed)
	}
	if traced != misattributed || claimsRefused != misattributed {
		t.Errorf("misattributions traced %d/%d, claims refused %d/%d; want all", traced, misattributed, claimsRefused, misattributed)
	}
	if sayingsNone < 45 {
		t.Errorf("sayings refused %d/50, want at least 45", sayingsNone)
	}
}

// BenchmarkVerify checks every quotation of the evaluation set in turn and
// reports the median and 90th percentile latency of one check.
func BenchmarkVerify(b *testing.B) {
	ix, vs := kjv(b)
	set := evalSet(b, vs)
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c := set[i%len(set)]
		start := time.Now()
		ix.Verify(c.quote, c.claimed)
		ds = append(ds, time.Since(start))
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	if len(ds) > 0 {
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(ds[len(ds)*9/10].Microseconds())/1000, "p90-ms")
	}
}
