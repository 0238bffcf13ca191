package pipeline_test

import (
	"context"
	"testing"

	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/pipeline/pipelinetest"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

// bundle is what a test of this package works with: its own database
// holding the ingested corpus, and the production retriever over the corpus.
type bundle struct {
	ctx context.Context
	st  *store.Store
	r   *pipeline.Retriever
}

// setup returns a fresh corpus database and the production retriever over
// the corpus (deploy/setup.sh installs WordNet). The retriever is the
// test's own copy: a test may set its sources. Every test calls setup
// after t.Parallel; nothing in the bundle is shared mutable state.
func setup(t testing.TB) bundle {
	t.Helper()
	ctx := context.Background()
	st := storetest.NewCorpusStore(t)
	// The sources production wires: lexical, SIF, the Nave's router,
	// WordNet expansion. The calibration is fitted on them.
	return bundle{ctx: ctx, st: st, r: pipelinetest.Retriever(t, st)}
}

// lexicalOnly strips b's retriever to the lexical index (with WordNet
// expansion), for tests that add the sources they are about.
func (b bundle) lexicalOnly() bundle {
	b.r.Dense, b.r.DenseName, b.r.Router = nil, "", nil
	return b
}

// answerer is an answerer with generator g (nil: extractive) over b's
// database and retriever.
func (b bundle) answerer(g pipeline.Generator) *pipeline.Answerer {
	return pipeline.NewAnswerer(b.st, b.r, g)
}

// router is the Nave's router loaded from b's database, as the worker
// loads it.
func (b bundle) router(t testing.TB) *pipeline.NaveRouter {
	t.Helper()
	r, err := pipeline.LoadNaveRouter(b.ctx, b.st)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// indexTexts are the verses of b's database as an index reads them.
func (b bundle) indexTexts(t testing.TB) []store.IndexText {
	t.Helper()
	texts, err := b.st.IndexTexts(b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	return texts
}
