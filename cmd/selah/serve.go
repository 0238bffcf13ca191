package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
	"github.com/spf13/cobra"

	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web"
	"github.com/selahdev/selah/worker"
)

// drainDelay is how long a stopping web process keeps serving with /readyz
// failing, so load balancers stop sending it traffic before it closes its
// listener.
const drainDelay = 2 * time.Second

func newWebCmd(cfg *config) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "web",
		Short: "Run the HTTP server only (API, website); search and ask jobs go to workers",
		Long: `web serves the API and the website on --addr, with /livez and a /readyz
that says only ready or not. /metrics and the /readyz that names each
failing check are on --metrics-addr, a listener of their own, so the
public port does not show them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd.Context(), cfg, true, false)
		},
	}
	cfg.bindHTTP(cmd)
	cfg.bindMetrics(cmd, defaultWebMetricsAddr)
	return cmd
}

func newWorkerCmd(cfg *config) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Run an Asynq worker only: it embeds, retrieves and answers search and ask jobs",
		Long: `worker serves the search and ask queues. Run as many as the load needs;
each serves /livez, /readyz and /metrics on --metrics-addr. On SIGTERM it
stops taking jobs, finishes those in flight (or hands them back) and exits.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd.Context(), cfg, false, true)
		},
	}
	cfg.bindWorker(cmd)
	cfg.bindMetrics(cmd, defaultWorkerMetricsAddr)
	return cmd
}

func newServeCmd(cfg *config) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the web server and a worker in one process (local use)",
		Long: `serve runs web and a worker in one process. Like web, it serves the API
on --addr and /livez, the detailed /readyz and /metrics (the web's and the
worker's together) on --metrics-addr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd.Context(), cfg, true, true)
		},
	}
	cfg.bindHTTP(cmd)
	cfg.bindWorker(cmd)
	cfg.bindMetrics(cmd, defaultWebMetricsAddr)
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

// run starts the web server, a worker, or both, and stops them in order
// when ctx ends (SIGINT or SIGTERM): the web process drains first, so no
// request is cut off; the worker then finishes its jobs.
func run(ctx context.Context, cfg *config, withWeb, withWorker bool) error {
	log := cfg.logger()
	if err := cfg.validate(withWeb); err != nil {
		return err
	}
	if withWeb {
		if err := cfg.checkWeb(); err != nil {
			return err
		}
	}
	if err := cfg.checkMetricsAddr(); err != nil {
		return err
	}
	st, err := cfg.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := migrateIfBehind(ctx, st, log); err != nil {
		return err
	}
	if err := keepPassages(ctx, st, log); err != nil {
		return err
	}
	rc, err := cfg.openRedis(ctx)
	if err != nil {
		return err
	}
	defer rc.Close()

	errc := make(chan error, 2)
	var gatherers []prometheus.Gatherer
	var wk *worker.Worker
	if withWorker {
		if wk, err = startWorker(ctx, cfg, st, rc, log); err != nil {
			return err
		}
		defer func() {
			log.Info("worker stopping: finishing in-flight jobs")
			wk.Shutdown()
		}()
		gatherers = append(gatherers, wk.Metrics().Registry)
		if !withWeb {
			hs, err := listenOps(cfg, wk.HealthHandler(st), errc, log)
			if err != nil {
				return err
			}
			defer hs.Close()
		}
	}

	var srv *web.Server
	if withWeb {
		q, err := jobs.NewClient(ctx, rc, jobs.Config{WatchEvery: cfg.JobWatchInterval, LostAfter: cfg.JobLostAfter}, log)
		if err != nil {
			return err
		}
		defer q.Close()
		proxies, _ := cfg.trustedProxies() // checked by checkWeb
		mailer, _ := cfg.mailer(log)       // checked by checkWeb
		srv, err = web.New(web.Config{Version: version, PublicURL: cfg.PublicURL, SearchTimeout: cfg.SearchTimeout, AskTimeout: cfg.AskTimeout,
			ChatMessagesPerDay: cfg.ChatPerDay, ChatMessagesPerAddressPerDay: cfg.ChatPerAddressPerDay, ReportsPerHour: cfg.ReportsPerHour,
			TrustedProxies: proxies},
			web.Deps{Store: st, Redis: rc, Logger: log, Queue: q, Gatherers: gatherers, Mailer: mailer})
		if err != nil {
			return err
		}
		// One operations listener for the process: in serve its /metrics
		// carries the worker's metrics too, and its /readyz sees the worker
		// among the live ones.
		hs, err := listenOps(cfg, srv.OpsHandler(), errc, log)
		if err != nil {
			return err
		}
		defer hs.Close()
		ln, err := net.Listen("tcp", cfg.listenAddr())
		if err != nil {
			return fmt.Errorf("listen %s: %w", cfg.listenAddr(), err)
		}
		go func() { errc <- srv.Listener(ln) }()
		// The quote index of POST /verify takes a moment to build; build it
		// now rather than on the first call.
		go srv.WarmVerify(ctx)
		log.Info("listening", slog.String("addr", "http://"+cfg.listenAddr()))
	}

	select {
	case err := <-errc:
		return fmt.Errorf("server stopped: %w", err)
	case <-ctx.Done():
	}
	if srv != nil {
		log.Info("shutting down: draining requests")
		srv.Drain()
		time.Sleep(cfg.DrainDelay)
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
	}
	return nil
}

// listenOps serves h, a process's /livez, detailed /readyz and /metrics,
// on METRICS_ADDR.
func listenOps(cfg *config, h http.Handler, errc chan<- error, log *slog.Logger) (*http.Server, error) {
	ln, err := net.Listen("tcp", cfg.MetricsAddr)
	if err != nil {
		return nil, fmt.Errorf("listen METRICS_ADDR %s: %w", cfg.MetricsAddr, err)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { errc <- hs.Serve(ln) }()
	log.Info("health and metrics", slog.String("addr", "http://"+cfg.MetricsAddr))
	return hs, nil
}

// startWorker builds the pipeline from the configuration and the index in
// the database, and starts serving the job queues.
func startWorker(ctx context.Context, cfg *config, st *store.Store, rc *redis.Client, log *slog.Logger) (*worker.Worker, error) {
	chatCfg, err := pipeline.ChatConfigFromEnv(os.Getenv)
	if err != nil {
		return nil, err
	}
	g, err := pipeline.NewGenerator(chatCfg)
	if err != nil {
		return nil, err
	}
	r, err := newRetriever(ctx, st)
	if err != nil {
		return nil, err
	}
	wk, err := worker.New(worker.Config{Concurrency: cfg.Concurrency, PollInterval: cfg.PollInterval}, rc, log)
	if err != nil {
		return nil, err
	}
	wk.HandlePipeline(st, r, pipeline.NewAnswerer(st, r, g))
	if err := wk.Start(ctx); err != nil {
		return nil, err
	}
	log.Info("worker started", slog.String("embedder", r.EmbedderName()), slog.String("generator", g.Name()))
	return wk, nil
}
