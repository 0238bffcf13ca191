package worker

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/selahdev/selah/api"
)

// Pinger is a dependency the worker needs to be ready (Postgres).
type Pinger interface {
	Ping(ctx context.Context) error
}

// HealthHandler serves a worker process's operational endpoints: /livez
// (the process answers), /readyz (not stopping, and Redis and db answer)
// and /metrics (the worker's metrics and extra).
func (w *Worker) HealthHandler(db Pinger, extra ...prometheus.Gatherer) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /livez", func(rw http.ResponseWriter, _ *http.Request) {
		api.WriteJSON(rw, http.StatusOK, map[string]string{"status": "alive"})
	})
	mux.HandleFunc("GET /readyz", func(rw http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		checks := map[string]string{"postgres": "ok", "redis": "ok", "stopping": "ok"}
		status := http.StatusOK
		if w.stopping.Load() {
			checks["stopping"], status = "down", http.StatusServiceUnavailable
		}
		if err := db.Ping(ctx); err != nil {
			checks["postgres"], status = "down", http.StatusServiceUnavailable
		}
		if err := w.rdb.Ping(ctx).Err(); err != nil {
			checks["redis"], status = "down", http.StatusServiceUnavailable
		}
		api.WriteJSON(rw, status, map[string]any{"status": map[bool]string{true: "ready", false: "not_ready"}[status == http.StatusOK], "checks": checks})
	})
	g := append(prometheus.Gatherers{w.metrics.Registry}, extra...)
	mux.Handle("GET /metrics", promhttp.HandlerFor(g, promhttp.HandlerOpts{}))
	return mux
}
