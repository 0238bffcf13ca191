package pipeline_test

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/pipeline/wordvec"
)

// wordVectors are the committed word vectors.
func wordVectors(t testing.TB) *wordvec.Vectors {
	t.Helper()
	vecs, err := wordvec.Default()
	if err != nil {
		t.Fatal(err)
	}
	return vecs
}

// sifIndex is a SIF index over the verses of a fresh corpus database and
// the committed word vectors.
func sifIndex(t testing.TB, opt pipeline.SIFOptions) *pipeline.SIFIndex {
	t.Helper()
	x, err := pipeline.NewSIFIndex(wordVectors(t), setup(t).indexTexts(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// rankOf is the 1-based rank of the first hit among found, 0 if none.
func rankOf(found []pipeline.Scored, hits []corpus.VerseID) int {
	for i, s := range found {
		if slices.Contains(hits, s.Verse) {
			return i + 1
		}
	}
	return 0
}

// TestSIFParaphrase: sayings in modern words, none sharing more than a
// word or two with the KJV, find their verse through the trained vectors.
func TestSIFParaphrase(t *testing.T) {
	t.Parallel()
	x := sifIndex(t, pipeline.SIFOptions{})
	if x.Len() != corpus.VerseCount {
		t.Fatalf("%d verses indexed", x.Len())
	}
	ctx := context.Background()
	for q, want := range map[string]corpus.VerseID{
		"don't be anxious about tomorrow, each day has enough trouble of its own": corpus.NewVerseID(40, 6, 34),
		"greed for money is the root of every kind of evil":                       corpus.NewVerseID(54, 6, 10),
	} {
		found, err := x.Search(ctx, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(found) != 10 || rankOf(found, []corpus.VerseID{want}) == 0 {
			t.Errorf("%q: %v not in the top 10: %+v", q, want, found)
		}
		for i := 1; i < len(found); i++ {
			if found[i].Score > found[i-1].Score {
				t.Errorf("%q: not sorted at %d", q, i)
			}
		}
	}
	// Similarity scores given verses as Search ranks them all: the same
	// cosine for a found verse, 0 for a verse the index does not hold and
	// for every verse when the query has no known word.
	q := "greed for money is the root of every kind of evil"
	found, err := x.Search(ctx, q, 3)
	if err != nil {
		t.Fatal(err)
	}
	ids := []corpus.VerseID{found[2].Verse, found[0].Verse, corpus.NewVerseID(99, 1, 1)}
	sim := x.Similarity(q, ids)
	if len(sim) != 3 || math.Abs(sim[0]-found[2].Score) > 1e-6 || math.Abs(sim[1]-found[0].Score) > 1e-6 || sim[2] != 0 {
		t.Errorf("Similarity = %v, want %v, %v, 0", sim, found[2].Score, found[0].Score)
	}
	if sim := x.Similarity("xqzv 123 !!", ids); slices.ContainsFunc(sim, func(f float64) bool { return f != 0 }) {
		t.Errorf("unknown words: Similarity = %v", sim)
	}
	// Nothing the vectors know: no verses and no error; limit 0: none.
	if found, err := x.Search(ctx, "xqzv 123 !!", 10); err != nil || found != nil {
		t.Errorf("unknown words: %+v, %v", found, err)
	}
	if found, err := x.Search(ctx, "love", 0); err != nil || found != nil {
		t.Errorf("limit 0: %+v, %v", found, err)
	}
	if _, err := pipeline.NewSIFIndex(nil, nil, pipeline.SIFOptions{}); err == nil {
		t.Error("an index without vectors was built")
	}
}

type sifMetrics struct{ n, hit1, hit10, mrr float64 }

func (m *sifMetrics) add(rank int) {
	m.n++
	if rank == 1 {
		m.hit1++
	}
	if rank >= 1 && rank <= 10 {
		m.hit10++
	}
	if rank > 0 {
		m.mrr += 1 / float64(rank)
	}
}

func (m sifMetrics) hitAt10() float64 { return m.hit10 / m.n }

func (m sifMetrics) log(t *testing.T, name string) {
	t.Logf("SIF alone, %-28s %4.0f cases  hit@1 %.3f  hit@10 %.3f  MRR %.3f", name, m.n, m.hit1/m.n, m.hit10/m.n, m.mrr/m.n)
}

// TestSIFEval measures the dense source alone on the sets the system may be
// tuned on (the paraphrases of the old eval sets) and on a generated
// WEB→KJV set: 1,000 random verses (fixed seed), the WEB wording as the
// query, the KJV verse as the answer, with the WEB words left out of the
// verse vectors. The floors are well under the measured figures (see the
// log): they catch a broken index or vectors, not a point of quality.
func TestSIFEval(t *testing.T) {
	t.Parallel()
	texts, vecs := setup(t).indexTexts(t), wordVectors(t)
	ctx := context.Background()
	full, err := pipeline.NewSIFIndex(vecs, texts, pipeline.SIFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []struct {
		file  string
		floor float64
	}{{"testdata/eval/search.jsonl", 0.3}, {"testdata/eval/holdout.jsonl", 0.2}} {
		f, err := os.Open(set.file)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := pipeline.ReadEvalCases(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		byKind := map[string]*sifMetrics{}
		for _, c := range cases {
			found, err := full.Search(ctx, c.Query, 10)
			if err != nil {
				t.Fatal(err)
			}
			if byKind[c.Kind] == nil {
				byKind[c.Kind] = &sifMetrics{}
			}
			byKind[c.Kind].add(rankOf(found, c.Hits))
		}
		for _, kind := range []string{pipeline.KindQuote, pipeline.KindParaphrase, pipeline.KindTopical} {
			if m := byKind[kind]; m != nil {
				m.log(t, set.file[14:]+" "+kind)
			}
		}
		if m := byKind[pipeline.KindParaphrase]; m == nil || m.hitAt10() < set.floor {
			t.Errorf("%s paraphrases: hit@10 below %.2f", set.file, set.floor)
		}
	}

	kjvOnly, err := full.WithoutWeb()
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := full.WithoutWeb(); again != kjvOnly {
		t.Error("WithoutWeb built the index twice")
	}
	r := rand.New(rand.NewPCG(12, 2026))
	var m sifMetrics
	for _, i := range r.Perm(len(texts))[:1000] {
		v := texts[i]
		if v.WebText == "" {
			continue
		}
		found, err := kjvOnly.Search(ctx, v.WebText, 10)
		if err != nil {
			t.Fatal(err)
		}
		m.add(rankOf(found, []corpus.VerseID{v.ID}))
	}
	m.log(t, "WEB→KJV (1000 generated)")
	if m.hitAt10() < 0.3 {
		t.Errorf("WEB→KJV hit@10 %.3f", m.hitAt10())
	}
}

// BenchmarkSIFSearch is one query against every verse (run it once:
// go test -run - -bench SIFSearch -benchtime 200x ./pipeline).
func BenchmarkSIFSearch(b *testing.B) {
	x := sifIndex(b, pipeline.SIFOptions{})
	ctx := context.Background()
	qs := []string{"dealing with grief after someone dies", "treat others the way you want to be treated",
		"money can't buy happiness", "I can do all things"}
	var took []time.Duration
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		if _, err := x.Search(ctx, qs[i%len(qs)], 50); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(t0))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
}
