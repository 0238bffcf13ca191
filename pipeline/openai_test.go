package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/pipeline"
)

type embedRequest struct {
	Model      string   `json:"model"`
	Input      []string `json:"input"`
	Dimensions int      `json:"dimensions"`
}

// fakeEmbeddings answers like the OpenAI embeddings API: for each input a
// vector of dims values derived from the input's length, listed in reverse
// order (the API's order is by "index", not by position).
func fakeEmbeddings(t *testing.T, dims int, seen *embedRequest) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("Authorization") != "Bearer test-key" {
			w.WriteHeader(http.StatusUnauthorized)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": "bad key", "type": "invalid_request_error"}})
			return
		}
		var req embedRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("request body: %v", err)
		}
		if seen != nil {
			*seen = req
		}
		data := []map[string]any{}
		for i := len(req.Input) - 1; i >= 0; i-- {
			v := make([]float64, dims)
			v[0] = float64(len(req.Input[i]))
			v[1] = 1
			data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": v})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": req.Model, "data": data,
			"usage": map[string]any{"prompt_tokens": 1, "total_tokens": 1}})
	}
}

func newOpenAI(t *testing.T, url string, cfg pipeline.EmbedderConfig) *pipeline.OpenAI {
	t.Helper()
	cfg.BaseURL, cfg.APIKey = url+"/v1", "test-key"
	e, err := pipeline.NewOpenAI(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestOpenAIEmbeds(t *testing.T) {
	t.Parallel()
	var seen embedRequest
	srv := httptest.NewServer(fakeEmbeddings(t, 4, &seen))
	defer srv.Close()
	e := newOpenAI(t, srv.URL, pipeline.EmbedderConfig{Model: "nomic-embed-text", Dims: 4, BatchSize: 2})
	ctx := context.Background()

	v, err := e.EmbedQuery(ctx, "Jesus wept")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Dense) != 4 || v.Dense[0] != 10 || v.Sparse != nil {
		t.Fatalf("query vector %v", v)
	}
	if seen.Model != "nomic-embed-text" || seen.Dimensions != 4 {
		t.Errorf("request %+v", seen)
	}
	texts := []string{"a", "bb", "ccc", "dddd", "eeeee"}
	vs, err := e.EmbedDocuments(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		if int(v.Dense[0]) != len(texts[i]) {
			t.Errorf("vector %d is for a text of length %v, want %q", i, v.Dense[0], texts[i])
		}
	}
	if len(seen.Input) != 1 { // the last batch of 2
		t.Errorf("last batch had %d inputs", len(seen.Input))
	}
	if e.Name() != "openai" || e.Dims() != 4 {
		t.Errorf("name %s dims %d", e.Name(), e.Dims())
	}
}

func TestOpenAILearnsDims(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(fakeEmbeddings(t, 6, nil))
	defer srv.Close()
	e := newOpenAI(t, srv.URL, pipeline.EmbedderConfig{})
	if e.Dims() != 0 {
		t.Fatalf("dims before first call: %d", e.Dims())
	}
	if _, err := e.EmbedQuery(context.Background(), "x"); err != nil {
		t.Fatal(err)
	}
	if e.Dims() != 6 {
		t.Fatalf("dims %d, want 6", e.Dims())
	}
}

func wantUnavailable(t *testing.T, err error) {
	t.Helper()
	if code := selah.ErrorCode(err); code != selah.EEMBEDDERUNAVAILABLE {
		t.Fatalf("error %v has code %q, want %q", err, code, selah.EEMBEDDERUNAVAILABLE)
	}
}

func TestOpenAIServerErrorsRetriedThenUnavailable(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"error":{"message":"boom","type":"server_error"}}`))
	}))
	defer srv.Close()
	// The SDK waits out its backoff within the attempt's timeout: the
	// timeout is well over it, so that a loaded machine still retries.
	e := newOpenAI(t, srv.URL, pipeline.EmbedderConfig{MaxRetries: 2, Timeout: 10 * time.Second})
	_, err := e.EmbedQuery(context.Background(), "q")
	wantUnavailable(t, err)
	if n := calls.Load(); n != 3 {
		t.Fatalf("%d attempts, want 3 (1 + 2 retries)", n)
	}
}

func TestOpenAINoRetriesWhenNegative(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	e := newOpenAI(t, srv.URL, pipeline.EmbedderConfig{MaxRetries: -1})
	_, err := e.EmbedQuery(context.Background(), "q")
	wantUnavailable(t, err)
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d attempts, want 1", n)
	}
}

func TestOpenAISlowServerTimesOut(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	e := newOpenAI(t, srv.URL, pipeline.EmbedderConfig{Timeout: 100 * time.Millisecond, MaxRetries: 1})
	start := time.Now()
	_, err := e.EmbedQuery(context.Background(), "q")
	wantUnavailable(t, err)
	// Two attempts of 100 ms and one backoff of at most 2 s; anything near
	// a hang fails.
	if d := time.Since(start); d > 4*time.Second {
		t.Fatalf("took %v", d)
	}
}

func TestOpenAIUnreachable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	e := newOpenAI(t, url, pipeline.EmbedderConfig{MaxRetries: -1, Timeout: time.Second})
	_, err := e.EmbedDocuments(context.Background(), []string{"a"})
	wantUnavailable(t, err)
}

func TestOpenAIBadKeyIsUnavailable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(fakeEmbeddings(t, 4, nil))
	defer srv.Close()
	e, err := pipeline.NewOpenAI(pipeline.EmbedderConfig{BaseURL: srv.URL + "/v1", APIKey: "wrong", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.EmbedQuery(context.Background(), "q")
	wantUnavailable(t, err)
}

func TestOpenAICallerCancelIsNotAnOutage(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The server notices a client hanging up only once the body is read.
		io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer srv.Close()
	e := newOpenAI(t, srv.URL, pipeline.EmbedderConfig{Timeout: 5 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := e.EmbedQuery(ctx, "q")
	if !errors.Is(err, context.DeadlineExceeded) || selah.ErrorCode(err) == selah.EEMBEDDERUNAVAILABLE {
		t.Fatalf("error %v, want the caller's deadline", err)
	}
}

func TestEmbedderConfigFromEnv(t *testing.T) {
	t.Parallel()
	env := map[string]string{"SELAH_EMBEDDER": "openai", "OPENAI_BASE_URL": "http://127.0.0.1:11434/v1",
		"OPENAI_EMBED_MODEL": "nomic-embed-text", "OPENAI_EMBED_DIMS": "768", "OPENAI_EMBED_TIMEOUT": "3s",
		"OPENAI_EMBED_RETRIES": "1"}
	cfg, err := pipeline.EmbedderConfigFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	want := pipeline.EmbedderConfig{Kind: "openai", BaseURL: "http://127.0.0.1:11434/v1", Model: "nomic-embed-text",
		Dims: 768, Timeout: 3 * time.Second, MaxRetries: 1}
	if cfg != want {
		t.Errorf("got %+v\nwant %+v", cfg, want)
	}
	for k, v := range map[string]string{"SELAH_EMBEDDER": "bert", "OPENAI_EMBED_DIMS": "x", "OPENAI_EMBED_TIMEOUT": "soon"} {
		bad := map[string]string{"SELAH_EMBEDDER": "openai", k: v}
		if _, err := pipeline.EmbedderConfigFromEnv(func(k string) string { return bad[k] }); err == nil {
			t.Errorf("%s=%s accepted", k, v)
		}
	}
	if cfg, err := pipeline.EmbedderConfigFromEnv(func(string) string { return "" }); err != nil || cfg.Kind != "" {
		t.Errorf("empty environment: %+v %v", cfg, err)
	}
}
