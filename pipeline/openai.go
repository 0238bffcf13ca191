package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/selahdev/selah"
)

// maxDenseDims is the most dimensions pgvector's HNSW index takes for
// vector.
const maxDenseDims = 2000

// openAIModel is what the embedders row records for the openai kind. It
// holds no secret: the key and the URL are configuration.
type openAIModel struct {
	Model string `json:"model"`
	Dims  int    `json:"dims"`
}

// OpenAI embeds with an OpenAI-compatible embeddings API (OpenAI, or
// Ollama and vLLM through their /v1 endpoints). Every request attempt has a
// timeout and failed attempts are retried a bounded number of times, so an
// outage costs at most about (retries+1)·timeout plus backoff; it is then
// an *selah.Error with code EEMBEDDERUNAVAILABLE.
type OpenAI struct {
	client   openai.Client
	model    string
	dims     atomic.Int64 // 0 until known
	timeout  time.Duration
	retries  int
	batch    int
	deadline time.Duration // bound on one call, retries included
}

// NewOpenAI returns an openai embedder for cfg (whose Kind is ignored).
func NewOpenAI(cfg EmbedderConfig) (*OpenAI, error) {
	cfg.Kind = KindOpenAI
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	e := &OpenAI{
		model:   cmp.Or(cfg.Model, DefaultOpenAIModel),
		timeout: cmp.Or(cfg.Timeout, DefaultEmbedTimeout),
		retries: cfg.MaxRetries,
		batch:   cmp.Or(cfg.BatchSize, DefaultEmbedBatchSize),
	}
	e.dims.Store(int64(cfg.Dims))
	switch {
	case e.retries == 0:
		e.retries = DefaultEmbedRetries
	case e.retries < 0:
		e.retries = 0
	}
	// Backoff between attempts is at most maxRetryDelay each.
	const maxRetryDelay = 2 * time.Second
	e.deadline = time.Duration(e.retries+1)*e.timeout + time.Duration(e.retries)*maxRetryDelay
	opts := []option.RequestOption{
		option.WithMaxRetries(e.retries),
		option.WithRequestTimeout(e.timeout),
		option.WithMaxRetryDelay(maxRetryDelay),
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	e.client = openai.NewClient(opts...)
	return e, nil
}

// Name is "openai".
func (e *OpenAI) Name() string { return OpenAIName }

// Dims is the configured dimension count, or 0 before the first embedding
// when none was configured.
func (e *OpenAI) Dims() int { return int(e.dims.Load()) }

// EmbedQuery embeds one query.
func (e *OpenAI) EmbedQuery(ctx context.Context, q string) (Vector, error) {
	vs, err := e.embed(ctx, []string{q})
	if err != nil {
		return Vector{}, err
	}
	return vs[0], nil
}

// EmbedDocuments embeds texts, BatchSize per request.
func (e *OpenAI) EmbedDocuments(ctx context.Context, texts []string) ([]Vector, error) {
	out := make([]Vector, 0, len(texts))
	for start := 0; start < len(texts); start += e.batch {
		vs, err := e.embed(ctx, texts[start:min(start+e.batch, len(texts))])
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
	}
	return out, nil
}

func (e *OpenAI) embed(ctx context.Context, texts []string) ([]Vector, error) {
	params := openai.EmbeddingNewParams{
		Model: openai.EmbeddingModel(e.model),
		Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts},
	}
	if d := e.dims.Load(); d > 0 {
		params.Dimensions = openai.Int(d)
	}
	callCtx, cancel := context.WithTimeout(ctx, e.deadline)
	defer cancel()
	res, err := e.client.Embeddings.New(callCtx, params)
	if err != nil {
		if ctx.Err() != nil {
			// The caller gave up; that is not the embedder's failure.
			return nil, fmt.Errorf("pipeline: openai embeddings: %w", ctx.Err())
		}
		return nil, unavailable(err)
	}
	if len(res.Data) != len(texts) {
		return nil, unavailable(fmt.Errorf("%d embeddings for %d inputs", len(res.Data), len(texts)))
	}
	out := make([]Vector, len(texts))
	for _, d := range res.Data {
		i := int(d.Index)
		if i < 0 || i >= len(out) || out[i].Dense != nil || len(d.Embedding) == 0 {
			return nil, unavailable(fmt.Errorf("bad embedding index %d", d.Index))
		}
		if e.dims.Load() == 0 {
			if len(d.Embedding) > maxDenseDims {
				return nil, fmt.Errorf("pipeline: openai model %s gives %d dimensions; set OPENAI_EMBED_DIMS to at most %d",
					e.model, len(d.Embedding), maxDenseDims)
			}
			e.dims.CompareAndSwap(0, int64(len(d.Embedding)))
		}
		if want := e.Dims(); len(d.Embedding) != want {
			return nil, unavailable(fmt.Errorf("embedding has %d dimensions, want %d", len(d.Embedding), want))
		}
		v := make([]float32, len(d.Embedding))
		for j, x := range d.Embedding {
			v[j] = float32(x)
		}
		out[i] = Vector{Dense: v}
	}
	return out, nil
}

// unavailable turns a failed call into the error callers map to 503,
// keeping the cause for the log.
func unavailable(cause error) error {
	var apiErr *openai.Error
	if errors.As(cause, &apiErr) {
		slog.Warn("openai embeddings failed", "status", apiErr.StatusCode, "error", cause)
	} else {
		slog.Warn("openai embeddings failed", "error", cause)
	}
	return &unavailableError{cause: cause}
}

// unavailableError is an EEMBEDDERUNAVAILABLE *selah.Error that keeps its
// cause for errors.Is and the log.
type unavailableError struct{ cause error }

func (u *unavailableError) Error() string {
	return "pipeline: openai embeddings: " + u.cause.Error()
}

// Unwrap exposes both the *selah.Error callers switch on and the cause.
func (u *unavailableError) Unwrap() []error {
	return []error{
		selah.Errorf(selah.EEMBEDDERUNAVAILABLE, "The embedding service is unavailable; try again shortly."),
		u.cause,
	}
}
