package pipeline_test

import (
	"context"
	"errors"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"encoding/json"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

var john316 = corpus.NewVerseID(43, 3, 16)

// localRetriever builds (or finds current) the local index on a fresh
// corpus database and returns a retriever over it.
func localRetriever(t testing.TB) (*pipeline.Retriever, *store.Store, pipeline.Embedder) {
	t.Helper()
	ctx := context.Background()
	st := storetest.NewCorpusStore(t)
	if _, err := pipeline.BuildIndex(ctx, st, pipeline.EmbedderConfig{}, false); err != nil {
		t.Fatal(err)
	}
	e, err := pipeline.LoadEmbedder(ctx, st, pipeline.EmbedderConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return pipeline.NewRetriever(st, e), st, e
}

func TestBuildIndexSkipsWhenCurrent(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewCorpusStore(t)
	first, err := pipeline.BuildIndex(ctx, st, pipeline.EmbedderConfig{Kind: "local"}, false)
	if err != nil {
		t.Fatal(err)
	}
	again, err := pipeline.BuildIndex(ctx, st, pipeline.EmbedderConfig{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Skipped || again.Verses != corpus.VerseCount || again.Dims != first.Dims || again.Embedder != "local" {
		t.Fatalf("second build %+v after %+v", again, first)
	}
	forced, err := pipeline.BuildIndex(ctx, st, pipeline.EmbedderConfig{}, true)
	if err != nil {
		t.Fatal(err)
	}
	if forced.Skipped || forced.Dims != first.Dims || forced.Verses != corpus.VerseCount {
		t.Fatalf("forced build %+v", forced)
	}
	t.Logf("local index: %d dims, model %v, embed %v, write %v, total %v",
		forced.Dims, forced.Model, forced.Embed, forced.Write, forced.Total)
	// A changed corpus is rebuilt.
	if _, err := st.Pool().Exec(ctx, `UPDATE verses SET web_text = web_text || ' selah' WHERE id = $1`, int32(john316)); err != nil {
		t.Fatal(err)
	}
	changed, err := pipeline.BuildIndex(ctx, st, pipeline.EmbedderConfig{}, false)
	if err != nil || changed.Skipped {
		t.Fatalf("after a corpus change: %+v %v", changed, err)
	}
}

func TestLoadEmbedderNeedsIndex(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewCorpusStore(t)
	if _, err := st.Pool().Exec(ctx, `DELETE FROM embedders`); err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.LoadEmbedder(ctx, st, pipeline.EmbedderConfig{}); err == nil || !strings.Contains(err.Error(), "selah ingest") {
		t.Fatalf("error %v", err)
	}
}

func TestSearchJohn316First(t *testing.T) {
	r, _, _ := localRetriever(t)
	ctx := context.Background()
	for _, mode := range []pipeline.Mode{pipeline.ModeHybrid, pipeline.ModeVector, pipeline.ModeFullText} {
		hits, err := r.Search(ctx, "For God so loved the world", 10, mode)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 10 {
			t.Fatalf("%s: %d hits", mode, len(hits))
		}
		h := hits[0]
		if h.Verse.ID != john316 || !strings.HasPrefix(h.Verse.Text, "For God so loved the world") && !strings.Contains(h.Verse.Text, "For God so loved the world") {
			t.Fatalf("%s: first hit %s %q", mode, h.Verse.ID, h.Verse.Text)
		}
		if h.Verse.Book.Name != "John" || h.Verse.Chapter != 3 || h.Verse.Number != 16 || h.Score <= 0 {
			t.Errorf("%s: hit %+v", mode, h)
		}
		for i := 1; i < len(hits); i++ {
			if mode == pipeline.ModeHybrid && hits[i].Score > hits[i-1].Score {
				t.Errorf("hybrid hits out of order at %d", i)
			}
			if hits[i].Verse.ID == hits[i-1].Verse.ID {
				t.Errorf("%s: duplicate %s", mode, hits[i].Verse.ID)
			}
		}
		switch mode {
		case pipeline.ModeHybrid:
			if h.FullTextRank == 0 || h.VectorRank == 0 {
				t.Errorf("hybrid first hit ranks %d/%d", h.FullTextRank, h.VectorRank)
			}
		case pipeline.ModeVector:
			if h.VectorRank != 1 || h.FullTextRank != 0 {
				t.Errorf("vector first hit ranks %d/%d", h.FullTextRank, h.VectorRank)
			}
		}
	}
	if got := r.EmbedderName(); got != "local" {
		t.Errorf("embedder %q", got)
	}
	if got := r.Strategy(); got != "hybrid:fulltext+local" {
		t.Errorf("strategy %q", got)
	}
}

// TestVectorScoreIsBM25 checks that pgvector's inner product agrees with
// the embedder's vectors: the score the database ranks by is the BM25
// score of the verse text.
func TestVectorScoreIsBM25(t *testing.T) {
	r, st, e := localRetriever(t)
	ctx := context.Background()
	const q = "the Lord is my shepherd I have everything I need"
	hits, err := r.Search(ctx, q, 5, pipeline.ModeVector)
	if err != nil {
		t.Fatal(err)
	}
	texts, err := st.IndexTexts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[corpus.VerseID]store.IndexText{}
	for _, x := range texts {
		byID[x.ID] = x
	}
	qv, _ := e.EmbedQuery(ctx, q)
	for _, h := range hits {
		x := byID[h.Verse.ID]
		dv, _ := e.EmbedDocuments(ctx, []string{pipeline.Document{Text: x.Text, WebText: x.WebText}.Content()})
		want := dot(qv, dv[0])
		if math.Abs(h.Score-want) > 1e-3 {
			t.Errorf("%s: database score %.5f, embedder %.5f", h.Verse.ID, h.Score, want)
		}
	}
}

func dot(a, b pipeline.Vector) float64 {
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

func TestSearchOddQueries(t *testing.T) {
	r, _, _ := localRetriever(t)
	ctx := context.Background()
	tests := []struct {
		name  string
		query string
		limit int
		none  bool
	}{
		{"empty", "  ", 10, true},
		{"stop words only", "the and of it", 10, true},
		{"unknown words", "xylophone quasar", 10, true},
		{"tsquery syntax", `love & (world | !hate) <-> 'x':* "faith`, 5, false},
		{"websearch operators", `"so loved" -hate or world`, 5, false},
		{"sql quote", `God's love'; DROP TABLE verses; --`, 5, false},
		{"limit one", "grace", 1, false},
		{"long", strings.Repeat("shepherd sheep pasture ", 22), 20, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, mode := range []pipeline.Mode{pipeline.ModeHybrid, pipeline.ModeVector, pipeline.ModeFullText} {
				hits, err := r.Search(ctx, tt.query, tt.limit, mode)
				if err != nil {
					t.Fatalf("%s: %v", mode, err)
				}
				if tt.none && len(hits) != 0 {
					t.Errorf("%s: %d hits, want none", mode, len(hits))
				}
				if !tt.none && (len(hits) == 0 || len(hits) > tt.limit) {
					t.Errorf("%s: %d hits for limit %d", mode, len(hits), tt.limit)
				}
			}
		})
	}
	if _, err := r.Search(ctx, "grace", 5, pipeline.Mode("semantic")); selah.ErrorCode(err) != selah.EINVALID {
		t.Errorf("unknown mode: %v", err)
	}
}

// TestEvalTarget is the acceptance test of the retrieval design: on the
// evaluation set, hybrid search finds a right verse in the top 10 for at
// least 85% of the queries, and on modern paraphrases does far better than
// full text alone.
func TestEvalTarget(t *testing.T) {
	r, _, _ := localRetriever(t)
	cases, err := pipeline.DefaultEvalCases()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := pipeline.Evaluate(context.Background(), r, cases, 10)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rep.WriteTable(&b)
	t.Logf("eval (%d cases, embedder %s):\n%s", len(cases), rep.Embedder, b.String())
	hybrid, _ := rep.Mode(pipeline.ModeHybrid)
	fulltext, _ := rep.Mode(pipeline.ModeFullText)
	if hybrid.Overall.HitAtK < 0.85 {
		t.Errorf("hybrid hit@10 %.3f, want at least 0.85", hybrid.Overall.HitAtK)
	}
	para, ftPara := hybrid.ByKind[pipeline.KindParaphrase], fulltext.ByKind[pipeline.KindParaphrase]
	if para.HitAtK < ftPara.HitAtK+0.2 {
		t.Errorf("paraphrase hit@10: hybrid %.3f, full text %.3f; want hybrid at least 0.2 better", para.HitAtK, ftPara.HitAtK)
	}
	if q := hybrid.ByKind[pipeline.KindQuote]; q.HitAt1 < 0.9 {
		t.Errorf("quote hit@1 %.3f, want at least 0.9", q.HitAt1)
	}
	for _, m := range hybrid.Misses {
		t.Logf("hybrid miss [%s] %q", m.Kind, m.Query)
	}
}

// hashEmbeddings is an OpenAI-compatible server whose embedding is a
// normalised bag of hashed lower-case words: texts with the same words
// have the same vector. down makes it answer 503.
type hashEmbeddings struct {
	dims int
	mu   sync.Mutex
	down bool
}

func (h *hashEmbeddings) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	down := h.down
	h.mu.Unlock()
	if down {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	var req embedRequest
	json.NewDecoder(r.Body).Decode(&req)
	data := []map[string]any{}
	for i, text := range req.Input {
		v := make([]float64, h.dims)
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !('a' <= r && r <= 'z') }) {
			f := fnv.New32a()
			f.Write([]byte(w))
			v[int(f.Sum32())%h.dims]++
		}
		data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": v})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": req.Model, "data": data,
		"usage": map[string]any{"prompt_tokens": 1, "total_tokens": 1}})
}

// TestOpenAIIndex runs the dense path end to end against a fake server:
// build with the openai embedder (HNSW index on vector), search, and an
// outage during search.
func TestOpenAIIndex(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewCorpusStore(t)
	fake := &hashEmbeddings{dims: 256}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	cfg := pipeline.EmbedderConfig{Kind: "openai", BaseURL: srv.URL + "/v1", APIKey: "k", Model: "hash-256", BatchSize: 512, MaxRetries: -1}
	rep, err := pipeline.BuildIndex(ctx, st, cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Dims != 256 || rep.Verses != corpus.VerseCount || rep.Kind != "openai" {
		t.Fatalf("report %+v", rep)
	}
	if rep, err := pipeline.BuildIndex(ctx, st, cfg, false); err != nil || !rep.Skipped {
		t.Fatalf("second build %+v %v", rep, err)
	}
	if _, err := pipeline.LoadEmbedder(ctx, st, pipeline.EmbedderConfig{Kind: "openai", Model: "other"}); err == nil {
		t.Fatal("LoadEmbedder accepted a model the index was not built with")
	}
	e, err := pipeline.LoadEmbedder(ctx, st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if e.Dims() != 256 {
		t.Fatalf("dims %d", e.Dims())
	}
	r := pipeline.NewRetriever(st, e)
	hits, err := r.Search(ctx, "Jesus wept", 5, pipeline.ModeVector)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Verse.ID != corpus.NewVerseID(43, 11, 35) || hits[0].Score < 0.99 {
		t.Fatalf("hits %+v", hits)
	}
	if hits, err := r.Search(ctx, "Jesus wept", 5, pipeline.ModeHybrid); err != nil || hits[0].Verse.ID != corpus.NewVerseID(43, 11, 35) {
		t.Fatalf("hybrid: %v %v", hits, err)
	}
	fake.mu.Lock()
	fake.down = true
	fake.mu.Unlock()
	_, err = r.Search(ctx, "Jesus wept", 5, pipeline.ModeHybrid)
	if selah.ErrorCode(err) != selah.EEMBEDDERUNAVAILABLE {
		t.Fatalf("search during an outage: %v", err)
	}
	var se *selah.Error
	if !errors.As(err, &se) || se.Message == "" {
		t.Fatalf("error %v carries no message", err)
	}
	// Full text needs no embedder.
	if _, err := r.Search(ctx, "Jesus wept", 5, pipeline.ModeFullText); err != nil {
		t.Fatal(err)
	}
	// The local index lives beside it.
	if _, err := pipeline.BuildIndex(ctx, st, pipeline.EmbedderConfig{}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.LoadEmbedder(ctx, st, pipeline.EmbedderConfig{}); err != nil {
		t.Fatal(err)
	}
}

func benchSearch(b *testing.B, mode pipeline.Mode) {
	r, _, _ := localRetriever(b)
	ctx := context.Background()
	cases, _ := pipeline.DefaultEvalCases()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := r.Search(ctx, cases[i%len(cases)].Query, 10, mode); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSearchHybrid(b *testing.B)   { benchSearch(b, pipeline.ModeHybrid) }
func BenchmarkSearchVector(b *testing.B)   { benchSearch(b, pipeline.ModeVector) }
func BenchmarkSearchFullText(b *testing.B) { benchSearch(b, pipeline.ModeFullText) }

func BenchmarkEmbedQueryLocal(b *testing.B) {
	_, _, e := localRetriever(b)
	ctx := context.Background()
	for b.Loop() {
		e.EmbedQuery(ctx, "what does the bible say about forgiving others")
	}
}
