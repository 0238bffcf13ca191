// Package pipeline finds the verses that answer a query: embedders that
// turn text into vectors (the local BM25 model built from the corpus, or an
// OpenAI-compatible embeddings API), the index of every verse's vector in
// PostgreSQL, and retrieval that fuses full-text and vector search.
package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pgvector/pgvector-go"

	"github.com/selahdev/selah/store"
)

// Vector is an embedding: exactly one of Dense and Sparse is set.
type Vector struct {
	Dense  []float32
	Sparse *pgvector.SparseVector
}

// Embedder turns text into vectors. Documents and queries may be embedded
// differently (the local model weights them asymmetrically), so both are
// asked for by name.
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

// EmbedderConfig chooses and configures the embedder. The zero value is the
// local embedder. Environment variables, read by EmbedderConfigFromEnv:
//
//	SELAH_EMBEDDER        local (default) or openai
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

// LoadEmbedder returns the configured embedder, ready for queries: the
// local model as the last index build stored it, or an openai client
// checked against the stored index (its dimensions fill in a zero
// Dims). It fails when the index has not been built: run selah ingest.
func LoadEmbedder(ctx context.Context, st *store.Store, cfg EmbedderConfig) (Embedder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rec, err := st.Embedder(ctx, cfg.name())
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("pipeline: no %s index in the database: run selah ingest", cfg.name())
	}
	if err != nil {
		return nil, err
	}
	if cfg.Kind == KindOpenAI {
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
	l, err := LoadLocal(rec.Model)
	if err != nil {
		return nil, err
	}
	if l.Dims() != rec.Dims {
		return nil, fmt.Errorf("pipeline: local index is %d-dimensional but its model %d: run selah ingest --force", rec.Dims, l.Dims())
	}
	return l, nil
}
