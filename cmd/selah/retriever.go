package main

import (
	"context"
	"os"

	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
)

// newRetriever builds the retrieval the environment asks for (see
// pipeline.RetrievalConfigFromEnv).
func newRetriever(ctx context.Context, st *store.Store) (*pipeline.Retriever, error) {
	cfg, err := pipeline.RetrievalConfigFromEnv(os.Getenv)
	if err != nil {
		return nil, err
	}
	return pipeline.LoadRetriever(ctx, st, cfg)
}
