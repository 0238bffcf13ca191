package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/spf13/cobra"

	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web"
)

func newServeCmd(cfg *config) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the web server and a worker in one process (local use)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), cfg)
		},
	}
	cfg.bindHTTP(cmd)
	return cmd
}

// migrateIfBehind applies migrations at start so a fresh deploy needs no
// separate step; the advisory lock in Migrate serializes racing processes.
func migrateIfBehind(ctx context.Context, st *store.Store, log *slog.Logger) error {
	pending, err := st.MigrationsPending(ctx)
	if err != nil {
		return err
	}
	if !pending {
		return nil
	}
	n, err := st.Migrate(ctx)
	if err != nil {
		return err
	}
	log.Info("applied migrations", slog.Int("count", n))
	return nil
}

func runServe(ctx context.Context, cfg *config) error {
	log := cfg.logger()
	st, err := cfg.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := migrateIfBehind(ctx, st, log); err != nil {
		return err
	}
	rc, err := cfg.openRedis(ctx)
	if err != nil {
		return err
	}
	defer rc.Close()

	srv := web.New(web.Config{Version: version, PublicURL: cfg.PublicURL}, web.Deps{Store: st, Redis: rc, Logger: log})
	errc := make(chan error, 1)
	go func() { errc <- srv.Listen(cfg.listenAddr()) }()
	log.Info("listening", slog.String("addr", "http://"+cfg.listenAddr()))
	select {
	case err := <-errc:
		return fmt.Errorf("listen %s: %w", cfg.listenAddr(), err)
	case <-ctx.Done():
	}
	log.Info("shutting down: draining requests")
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
