package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/selahdev/selah/store"
)

// keepPassages loads the KJV text into the process's memory and keeps it
// current until ctx ends (store/passages.go): web and worker then read
// verse text without a query.
func keepPassages(ctx context.Context, st *store.Store, log *slog.Logger) error {
	if _, err := st.LoadPassages(ctx); err != nil {
		return fmt.Errorf("keep passages: %w", err)
	}
	go st.WatchPassages(ctx, func(err error) {
		log.Warn("corpus checksum check failed; serving the text in memory", slog.String("error", err.Error()))
	})
	return nil
}
