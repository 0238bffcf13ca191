// Package pipeline finds the verses that answer a query and answers with
// them: an in-process BM25F index over the KJV and WEB wording, fused with
// optional dense sources (trained word vectors, or an OpenAI-compatible
// embeddings API whose vectors are stored in PostgreSQL) and the Nave's
// topic router; calibrated scores; and grounded answers.
package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pgvector/pgvector-go"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
)

// Vector is an embedding: exactly one of Dense and Sparse is set.
type Vector struct {
	Dense  []float32
	Sparse *pgvector.SparseVector
}

// Embedder turns text into vectors. Documents and queries may be embedded
// differently, so both are asked for by name.
type Embedder interface {
	Name() string
	Dims() int
	EmbedQuery(ctx context.Context, q string) (Vector, error)
	EmbedDocuments(ctx context.Context, texts []string) ([]Vector, error)
}

// Embedder kinds.
const (
	KindLocal  = "local"
	KindOpenAI = "openai"
)

// OpenAIName is the name the openai embedder's vectors are stored under.
const OpenAIName = "openai"

// EmbedderConfig chooses and configures the embedder. The zero value is
// local: no embeddings API, retrieval in process only. Environment variables, read by EmbedderConfigFromEnv:
//
//	SELAH_EMBEDDER        local (default: no embeddings API) or openai
//	OPENAI_BASE_URL       API base URL (default https://api.openai.com/v1);
//	                      point it at Ollama or vLLM for a local server
//	OPENAI_API_KEY        API key
//	OPENAI_EMBED_MODEL    model (default text-embedding-3-small)
//	OPENAI_EMBED_DIMS     dimensions to ask for (default: the model's own)
//	OPENAI_EMBED_TIMEOUT  per-request timeout, a Go duration (default 10s)
//	OPENAI_EMBED_RETRIES  retries after a failed request (default 2)
type EmbedderConfig struct {
	Kind string // KindLocal ("" too) or KindOpenAI

	// The rest configure the openai kind only.
	BaseURL string
	APIKey  string
	Model   string
	Dims    int // 0: whatever the model returns
	// Timeout bounds each request attempt (0: 10s).
	Timeout time.Duration
	// MaxRetries is how often a failed request is retried (0: 2; negative:
	// never).
	MaxRetries int
	// BatchSize is how many verses one request embeds while indexing (0: 128).
	BatchSize int
}

// Defaults of EmbedderConfig.
const (
	DefaultOpenAIModel    = "text-embedding-3-small"
	DefaultEmbedTimeout   = 10 * time.Second
	DefaultEmbedRetries   = 2
	DefaultEmbedBatchSize = 128
)

// EmbedderConfigFromEnv reads the configuration from the environment
// variables listed at EmbedderConfig; getenv is os.Getenv in production.
func EmbedderConfigFromEnv(getenv func(string) string) (EmbedderConfig, error) {
	c := EmbedderConfig{
		Kind:    strings.ToLower(strings.TrimSpace(getenv("SELAH_EMBEDDER"))),
		BaseURL: getenv("OPENAI_BASE_URL"),
		APIKey:  getenv("OPENAI_API_KEY"),
		Model:   getenv("OPENAI_EMBED_MODEL"),
	}
	var err error
	if v := getenv("OPENAI_EMBED_DIMS"); v != "" {
		if c.Dims, err = strconv.Atoi(v); err != nil || c.Dims < 0 {
			return c, fmt.Errorf("pipeline: OPENAI_EMBED_DIMS=%q is not a dimension count", v)
		}
	}
	if v := getenv("OPENAI_EMBED_TIMEOUT"); v != "" {
		if c.Timeout, err = time.ParseDuration(v); err != nil || c.Timeout < 0 {
			return c, fmt.Errorf("pipeline: OPENAI_EMBED_TIMEOUT=%q is not a duration", v)
		}
	}
	if v := getenv("OPENAI_EMBED_RETRIES"); v != "" {
		if c.MaxRetries, err = strconv.Atoi(v); err != nil {
			return c, fmt.Errorf("pipeline: OPENAI_EMBED_RETRIES=%q is not a number", v)
		}
	}
	return c, c.Validate()
}

// Validate reports a configuration that cannot work.
func (c EmbedderConfig) Validate() error {
	switch c.Kind {
	case "", KindLocal:
		return nil
	case KindOpenAI:
		if c.Dims < 0 || c.Dims > maxDenseDims {
			return fmt.Errorf("pipeline: openai embedder: dimensions %d out of range 1-%d", c.Dims, maxDenseDims)
		}
		return nil
	}
	return fmt.Errorf("pipeline: unknown embedder kind %q (want local or openai)", c.Kind)
}

// name is the name the configured embedder's vectors are stored under.
func (c EmbedderConfig) name() string {
	if c.Kind == KindOpenAI {
		return OpenAIName
	}
	return LocalName
}

// LoadEmbedder returns the openai embedder, ready for queries, checked
// against the stored index (its dimensions fill in a zero Dims). It fails
// when the index has not been built (run selah ingest), and for the local
// kind, which has no embedder.
func LoadEmbedder(ctx context.Context, st *store.Store, cfg EmbedderConfig) (Embedder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Kind != KindOpenAI {
		return nil, fmt.Errorf("pipeline: the %s configuration has no embedder", LocalName)
	}
	rec, err := st.Embedder(ctx, OpenAIName)
	if errors.Is(err, selah.ErrNotFound) {
		return nil, fmt.Errorf("pipeline: no %s index in the database: run selah ingest", OpenAIName)
	}
	if err != nil {
		return nil, err
	}
	var m openAIModel
	if err := json.Unmarshal(rec.Model, &m); err != nil {
		return nil, fmt.Errorf("pipeline: openai index record: %w", err)
	}
	if cfg.Model == "" {
		cfg.Model = DefaultOpenAIModel
	}
	if m.Model != cfg.Model || (cfg.Dims != 0 && cfg.Dims != rec.Dims) {
		return nil, fmt.Errorf("pipeline: the openai index holds %s at %d dimensions, not %s at %d: run selah ingest",
			m.Model, rec.Dims, cfg.Model, cfg.Dims)
	}
	cfg.Dims = rec.Dims
	return NewOpenAI(cfg)
}

// LoadDense returns the dense source the configuration names: for openai,
// the nearest verses of the query's embedding among the stored vectors;
// for local, none (nil, and no error).
func LoadDense(ctx context.Context, st *store.Store, cfg EmbedderConfig) (VerseSource, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Kind != KindOpenAI {
		return nil, nil
	}
	e, err := LoadEmbedder(ctx, st, cfg)
	if err != nil {
		return nil, err
	}
	return &EmbedderSource{st: st, e: e}, nil
}

// EmbedderSource is the dense source of an embedder whose verse vectors
// BuildIndex stored: the query's embedding's nearest verses by cosine
// similarity (pgvector HNSW).
type EmbedderSource struct {
	st *store.Store
	e  Embedder
	// EfSearch is hnsw.ef_search (0: DefaultEfSearch).
	EfSearch int
}

// DefaultEfSearch is hnsw.ef_search for dense vector search.
const DefaultEfSearch = 200

// NewEmbedderSource returns the dense source of e's stored vectors.
func NewEmbedderSource(st *store.Store, e Embedder) *EmbedderSource {
	return &EmbedderSource{st: st, e: e}
}

// Name is the embedder's name.
func (s *EmbedderSource) Name() string { return s.e.Name() }

// Search returns the verses nearest the query's embedding, best first.
func (s *EmbedderSource) Search(ctx context.Context, query string, limit int) ([]Scored, error) {
	v, err := s.e.EmbedQuery(ctx, query)
	if err != nil {
		return nil, err
	}
	if len(v.Dense) == 0 {
		return nil, nil
	}
	ns, err := s.st.NearestVerses(ctx, s.e.Name(), pgvector.NewVector(v.Dense), limit, cmp.Or(s.EfSearch, DefaultEfSearch))
	if err != nil {
		return nil, fmt.Errorf("pipeline: dense search: %w", err)
	}
	out := make([]Scored, len(ns))
	for i, n := range ns {
		out[i] = Scored{Verse: n.Verse, Score: n.Similarity}
	}
	return out, nil
}
