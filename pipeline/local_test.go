package pipeline

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/selahdev/selah/corpus"
)

// smallCorpus is a few verses in both wordings, enough for a vocabulary
// with shared, rare and archaic words.
var smallCorpus = []Document{
	{ID: corpus.NewVerseID(1, 1, 1), Text: "In the beginning God created the heaven and the earth.",
		WebText: "In the beginning, God created the heavens and the earth."},
	{ID: corpus.NewVerseID(1, 1, 3), Text: "And God said, Let there be light: and there was light.",
		WebText: "God said, “Let there be light,” and there was light."},
	{ID: corpus.NewVerseID(19, 23, 1), Text: "The LORD is my shepherd; I shall not want.",
		WebText: "Yahweh is my shepherd; I shall lack nothing."},
	{ID: corpus.NewVerseID(43, 3, 16), Text: "For God so loved the world, that he gave his only begotten Son, that whosoever believeth in him should not perish, but have everlasting life.",
		WebText: "For God so loved the world, that he gave his only born Son, that whoever believes in him should not perish, but have eternal life."},
	{ID: corpus.NewVerseID(43, 11, 35), Text: "Jesus wept.", WebText: "Jesus wept."},
	{ID: corpus.NewVerseID(62, 4, 8), Text: "He that loveth not knoweth not God; for God is love.",
		WebText: "He who doesn’t love doesn’t know God, for God is love."},
	{ID: corpus.NewVerseID(62, 4, 16), Text: "And we have known and believed the love that God hath to us. God is love; and he that dwelleth in love dwelleth in God, and God in him.",
		WebText: "We know and have believed the love which God has for us. God is love, and he who remains in love remains in God, and God remains in him."},
}

func buildSmall(t testing.TB, docs []Document) *Local {
	t.Helper()
	l, err := BuildLocal(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func sparseDot(a, b Vector) float64 {
	m := map[int32]float64{}
	for i, ix := range a.Sparse.Indices() {
		m[ix] = float64(a.Sparse.Values()[i])
	}
	var s float64
	for i, ix := range b.Sparse.Indices() {
		s += m[ix] * float64(b.Sparse.Values()[i])
	}
	return s
}

// TestLocalBM25Identity checks the design's premise: the inner product of
// a query vector and a document vector is the document's BM25 score,
// computed here the textbook way from the analyzer's terms.
func TestLocalBM25Identity(t *testing.T) {
	ctx := context.Background()
	l := buildSmall(t, smallCorpus)
	// Reference statistics, counted independently of BuildLocal.
	an := analyzer{modern: l.model.Modern}
	type doc struct {
		tf map[string]float64
		dl float64
	}
	docs := make([]doc, len(smallCorpus))
	df := map[string]float64{}
	var total float64
	for i, d := range smallCorpus {
		docs[i] = doc{tf: map[string]float64{}}
		an.features(d.Content(), func(t string, bigram bool) {
			if !bigram {
				docs[i].dl++
			}
			docs[i].tf[t]++
		})
		for t := range docs[i].tf {
			df[t]++
		}
		total += docs[i].dl
	}
	n, avgdl := float64(len(docs)), total/float64(len(docs))
	const k1, b = bm25K1, bm25B
	bm25 := func(query string, d doc) float64 {
		var s float64
		an.features(query, func(t string, bigram bool) {
			if df[t] == 0 || (bigram && df[t] < minBigramDF) {
				return
			}
			idf := math.Log(1 + (n-df[t]+0.5)/(df[t]+0.5))
			if bigram {
				idf *= bigramWeight
			}
			tf := d.tf[t]
			s += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*d.dl/avgdl))
		})
		return s
	}
	contents := make([]string, len(smallCorpus))
	for i, d := range smallCorpus {
		contents[i] = d.Content()
	}
	dvs, err := l.EmbedDocuments(ctx, contents)
	if err != nil {
		t.Fatal(err)
	}
	// Queries whose words have no synonyms, so the query vector is plain
	// idf.
	for _, q := range []string{"God is love", "light", "shepherd earth", "begotten son perish", "unknown words only"} {
		qv, err := l.EmbedQuery(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range docs {
			got, want := sparseDot(qv, dvs[i]), bm25(q, d)
			if math.Abs(got-want) > 1e-4*math.Max(1, want) {
				t.Errorf("%q · %s = %.6f, BM25 = %.6f", q, smallCorpus[i].ID, got, want)
			}
		}
	}
}

func TestLocalDeterministic(t *testing.T) {
	ctx := context.Background()
	a := buildSmall(t, smallCorpus)
	shuffled := slices.Clone(smallCorpus)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	b := buildSmall(t, shuffled)
	ma, _ := a.MarshalBinary()
	mb, _ := b.MarshalBinary()
	if !bytes.Equal(ma, mb) || a.Checksum() != b.Checksum() {
		t.Fatal("two builds from the same corpus differ")
	}
	// A model that went through the database embeds identically.
	c, err := LoadLocal(ma)
	if err != nil {
		t.Fatal(err)
	}
	text := smallCorpus[3].Content()
	for _, e := range []*Local{b, c} {
		va, _ := a.EmbedDocuments(ctx, []string{text})
		vb, _ := e.EmbedDocuments(ctx, []string{text})
		if va[0].Sparse.String() != vb[0].Sparse.String() {
			t.Fatalf("document vectors differ:\n%s\n%s", va[0].Sparse, vb[0].Sparse)
		}
		qa, _ := a.EmbedQuery(ctx, "don't worry about tomorrow")
		qb, _ := e.EmbedQuery(ctx, "don't worry about tomorrow")
		if qa.Sparse.String() != qb.Sparse.String() {
			t.Fatalf("query vectors differ")
		}
	}
}

func TestLocalRanksQuoteFirst(t *testing.T) {
	ctx := context.Background()
	l := buildSmall(t, smallCorpus)
	contents := make([]string, len(smallCorpus))
	for i, d := range smallCorpus {
		contents[i] = d.Content()
	}
	dvs, _ := l.EmbedDocuments(ctx, contents)
	for _, tt := range []struct {
		q    string
		want corpus.VerseID
	}{
		{"For God so loved the world", corpus.NewVerseID(43, 3, 16)},
		{"the Lord is my shepherd I have everything I need", corpus.NewVerseID(19, 23, 1)},
		{"Jesus cried", corpus.NewVerseID(43, 11, 35)},
	} {
		qv, _ := l.EmbedQuery(ctx, tt.q)
		best, bestScore := corpus.VerseID(0), 0.0
		for i := range dvs {
			if s := sparseDot(qv, dvs[i]); s > bestScore {
				best, bestScore = smallCorpus[i].ID, s
			}
		}
		if best != tt.want {
			t.Errorf("%q: best %s, want %s", tt.q, best, tt.want)
		}
	}
}

func TestLocalVectorsFitHNSW(t *testing.T) {
	l := buildSmall(t, smallCorpus)
	if l.Dims() != len(l.model.Terms) || l.Name() != LocalName {
		t.Fatalf("dims %d name %s", l.Dims(), l.Name())
	}
	long := ""
	for i := 0; i < 600; i++ {
		long += " word" + string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	vs, _ := l.EmbedDocuments(context.Background(), []string{long + " God love light"})
	if n := len(vs[0].Sparse.Indices()); n > maxDocTerms {
		t.Fatalf("%d non-zero elements", n)
	}
	if _, err := LoadLocal([]byte(`{"version":"bm25-v0"}`)); err == nil {
		t.Fatal("LoadLocal accepted a model of another version")
	}
}
