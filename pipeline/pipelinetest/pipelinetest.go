// Package pipelinetest helps tests that need the real retrieval pipeline
// over the test corpus (store/storetest). It imports neither web nor
// worker, so the internal tests of either can use it.
package pipelinetest

import (
	"context"
	"sync"
	"testing"

	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
)

var shared struct {
	once sync.Once
	r    *pipeline.Retriever
	err  error
}

// Retriever returns a retriever over the test corpus in st. Its index is
// built once per test binary: the corpus is the same in every test
// database (each a clone of one template), and a retriever holds no
// connection. The copy returned is the caller's to configure.
func Retriever(t testing.TB, st *store.Store) *pipeline.Retriever {
	t.Helper()
	shared.once.Do(func() {
		shared.r, shared.err = pipeline.LoadRetriever(context.Background(), st, pipeline.RetrievalConfig{})
	})
	if shared.err != nil {
		t.Fatalf("pipelinetest: retriever: %v", shared.err)
	}
	r := *shared.r
	return &r
}
