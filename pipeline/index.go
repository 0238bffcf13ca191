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

	"github.com/selahdev/selah/store"
)

// IndexReport says what BuildIndex did.
type IndexReport struct {
	Embedder string
	Kind     string
	Dims     int
	Verses   int
	Skipped  bool          // the stored index was current
	Model    time.Duration // learning the local model
	Embed    time.Duration // embedding every verse
	Write    time.Duration // COPY and the HNSW index
	Total    time.Duration
}

// openAIDocVersion names how verses become openai input text; bump it when
// Document.Content changes.
const openAIDocVersion = "doc-v1"

// BuildIndex embeds every verse with the configured embedder and stores the
// vectors and the HNSW index over them, in one transaction. It is skipped,
// unless force is set, when the stored index was built by the same
// embedder from the same corpus. selah ingest calls it after loading the
// verses.
func BuildIndex(ctx context.Context, st *store.Store, cfg EmbedderConfig, force bool) (IndexReport, error) {
	start := time.Now()
	rep := IndexReport{Embedder: cfg.name(), Kind: cfg.Kind}
	if rep.Kind == "" {
		rep.Kind = KindLocal
	}
	if err := cfg.Validate(); err != nil {
		return rep, err
	}
	texts, err := st.IndexTexts(ctx)
	if err != nil {
		return rep, err
	}
	if len(texts) == 0 {
		return rep, fmt.Errorf("pipeline: build index: no verses in the database: run selah ingest")
	}
	rep.Verses = len(texts)
	docs := make([]Document, len(texts))
	contents := make([]string, len(texts))
	h := sha256.New()
	for i, t := range texts {
		docs[i] = Document{ID: t.ID, Text: t.Text, WebText: t.WebText}
		contents[i] = docs[i].Content()
		fmt.Fprintf(h, "%d\x00%s\x00%s\x00", t.ID, t.Text, t.WebText)
	}
	corpusSum := hex.EncodeToString(h.Sum(nil))

	// What the vectors depend on: the embedder's design and the corpus.
	var identity string
	if rep.Kind == KindOpenAI {
		identity = fmt.Sprintf("openai\x00%s\x00%s\x00%d", openAIDocVersion, cfgModel(cfg), cfg.Dims)
	} else {
		identity = "local\x00" + localVersion
	}
	sum := sha256.Sum256([]byte(identity + "\x00" + corpusSum))
	checksum := hex.EncodeToString(sum[:])

	have, err := st.Embedder(ctx, rep.Embedder)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return rep, err
	case !force && have.Checksum == checksum && have.Vectors == len(texts):
		rep.Skipped, rep.Dims = true, have.Dims
		rep.Total = time.Since(start)
		return rep, nil
	}

	var e Embedder
	var model []byte
	t0 := time.Now()
	if rep.Kind == KindOpenAI {
		oe, err := NewOpenAI(cfg)
		if err != nil {
			return rep, err
		}
		e = oe
	} else {
		l, err := BuildLocal(ctx, docs)
		if err != nil {
			return rep, err
		}
		if model, err = l.MarshalBinary(); err != nil {
			return rep, err
		}
		e = l
	}
	rep.Model = time.Since(t0)

	t0 = time.Now()
	vecs, err := e.EmbedDocuments(ctx, contents)
	if err != nil {
		return rep, fmt.Errorf("pipeline: build index: %w", err)
	}
	if len(vecs) != len(texts) {
		return rep, fmt.Errorf("pipeline: build index: %d vectors for %d verses", len(vecs), len(texts))
	}
	rep.Embed = time.Since(t0)
	rep.Dims = e.Dims()
	if rep.Kind == KindOpenAI {
		if model, err = json.Marshal(openAIModel{Model: cfgModel(cfg), Dims: rep.Dims}); err != nil {
			return rep, err
		}
	}

	t0 = time.Now()
	rows := make([]store.Embedding, len(texts))
	for i, v := range vecs {
		rows[i] = store.Embedding{VerseID: texts[i].ID, Sparse: v.Sparse}
		if v.Sparse == nil {
			dv := pgvector.NewVector(v.Dense)
			rows[i].Dense = &dv
		}
	}
	rec := store.EmbedderRecord{Name: rep.Embedder, Kind: rep.Kind, Dims: rep.Dims, Model: model, Checksum: checksum}
	// Sparse BM25 vectors are searched exactly: over 31k verses a scan costs
	// a few milliseconds more than HNSW, whose recall on sparse vectors is
	// short of exact (see Retriever), and skips a long graph build.
	if err := st.ReplaceEmbeddings(ctx, rec, rows, rep.Kind != KindLocal); err != nil {
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
