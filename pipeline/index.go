package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/pgvector/pgvector-go"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
)

// IndexReport says what BuildIndex did.
type IndexReport struct {
	Embedder string
	Kind     string
	Dims     int
	Verses   int
	Skipped  bool          // the stored index was current, or none is needed (local)
	Embed    time.Duration // embedding every verse
	Write    time.Duration // COPY and the HNSW index
	Total    time.Duration
}

// openAIDocVersion names how verses become openai input text; bump it when
// Document.Content changes.
const openAIDocVersion = "doc-v1"

// BuildIndex embeds every verse with the configured embeddings API and
// stores the vectors and the HNSW index over them, in one transaction. It
// is skipped, unless force is set, when the stored index was built by the
// same embedder from the same corpus. The local configuration stores
// nothing: its index is built in memory when a process starts
// (NewRetriever). selah ingest calls it after loading the verses.
func BuildIndex(ctx context.Context, st *store.Store, cfg EmbedderConfig, force bool) (IndexReport, error) {
	start := time.Now()
	rep := IndexReport{Embedder: cfg.name(), Kind: cfg.Kind}
	if err := cfg.Validate(); err != nil {
		return rep, err
	}
	if rep.Kind != KindOpenAI {
		rep.Kind, rep.Skipped = KindLocal, true
		return rep, nil
	}
	texts, err := st.IndexTexts(ctx)
	if err != nil {
		return rep, err
	}
	if len(texts) == 0 {
		return rep, fmt.Errorf("pipeline: build index: no verses in the database: run selah ingest")
	}
	rep.Verses = len(texts)
	contents := make([]string, len(texts))
	h := sha256.New()
	for i, t := range texts {
		contents[i] = documentContent(t.Text, t.WebText)
		fmt.Fprintf(h, "%d\x00%s\x00%s\x00", t.ID, t.Text, t.WebText)
	}
	corpusSum := hex.EncodeToString(h.Sum(nil))

	// What the vectors depend on: the embedder's design and the corpus.
	identity := fmt.Sprintf("openai\x00%s\x00%s\x00%d", openAIDocVersion, cfgModel(cfg), cfg.Dims)
	sum := sha256.Sum256([]byte(identity + "\x00" + corpusSum))
	checksum := hex.EncodeToString(sum[:])

	have, err := st.Embedder(ctx, rep.Embedder)
	switch {
	case errors.Is(err, selah.ErrNotFound):
	case err != nil:
		return rep, err
	case !force && have.Checksum == checksum && have.Vectors == len(texts):
		rep.Skipped, rep.Dims = true, have.Dims
		rep.Total = time.Since(start)
		return rep, nil
	}

	e, err := NewOpenAI(cfg)
	if err != nil {
		return rep, err
	}
	t0 := time.Now()
	vecs, err := e.EmbedDocuments(ctx, contents)
	if err != nil {
		return rep, fmt.Errorf("pipeline: build index: %w", err)
	}
	if len(vecs) != len(texts) {
		return rep, fmt.Errorf("pipeline: build index: %d vectors for %d verses", len(vecs), len(texts))
	}
	rep.Embed = time.Since(t0)
	rep.Dims = e.Dims()
	model, err := json.Marshal(openAIModel{Model: cfgModel(cfg), Dims: rep.Dims})
	if err != nil {
		return rep, err
	}

	t0 = time.Now()
	rows := make([]store.Embedding, len(texts))
	for i, v := range vecs {
		dv := pgvector.NewVector(v.Dense)
		rows[i] = store.Embedding{VerseID: texts[i].ID, Dense: &dv}
	}
	rec := store.EmbedderRecord{Name: rep.Embedder, Kind: rep.Kind, Dims: rep.Dims, Model: model, Checksum: checksum}
	if err := st.ReplaceEmbeddings(ctx, rec, rows, true); err != nil {
		return rep, err
	}
	rep.Write = time.Since(t0)
	rep.Total = time.Since(start)
	return rep, nil
}

func cfgModel(cfg EmbedderConfig) string {
	if cfg.Model == "" {
		return DefaultOpenAIModel
	}
	return cfg.Model
}

// documentContent is the text embedded for a verse: KJV then WEB.
func documentContent(kjv, web string) string {
	if web == "" {
		return kjv
	}
	return kjv + " " + web
}
