package web

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/jobs"
)

func timed(ctx context.Context, f func(context.Context) error) api.Check {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	start := time.Now()
	err := f(ctx)
	c := api.Check{Status: "ok", LatencyMS: float64(time.Since(start).Microseconds()) / 1000}
	if err != nil {
		// The message names the dependency, not its address or credentials.
		c.Status, c.Error = "down", "unreachable"
	}
	return c
}

// health reports per-dependency checks and corpus facts: 200 when all are
// up, 503 with the same shape otherwise.
func (s *Server) health(c *fiber.Ctx) error {
	ctx := c.UserContext()
	res := api.HealthResponse{Status: "ok", Version: s.cfg.Version, Time: time.Now().UTC().Truncate(time.Second),
		Checks: map[string]api.Check{}, RequestID: RequestID(c)}
	res.Checks["postgres"] = timed(ctx, s.store.Ping)
	res.Checks["redis"] = timed(ctx, func(ctx context.Context) error { return s.redis.Ping(ctx).Err() })
	if res.Checks["postgres"].Status == "ok" {
		var facts api.CorpusFacts
		chk := timed(ctx, func(ctx context.Context) (err error) {
			facts, err = s.store.CorpusFacts(ctx)
			return err
		})
		if chk.Status == "ok" {
			res.Corpus = &facts
			if facts.Verses == 0 {
				chk = api.Check{Status: "down", Error: "corpus not ingested"}
			}
		}
		res.Checks["corpus"] = chk
	}
	status := fiber.StatusOK
	for _, ch := range res.Checks {
		if ch.Status != "ok" {
			res.Status, status = "degraded", fiber.StatusServiceUnavailable
		}
	}
	return c.Status(status).JSON(res)
}

// ReadyResponse is the body of GET /readyz on the operations listener
// (OpsHandler). The public port answers with Status alone: which
// dependency is down, and how fast each answers, is for operators.
type ReadyResponse struct {
	Status string               `json:"status"` // "ready" or "not_ready"
	Checks map[string]api.Check `json:"checks,omitempty"`
}

// livez answers 200 while the process can serve at all; orchestrators
// restart a process that stops answering it. It checks nothing else, so a
// database outage does not make every replica restart at once.
func (s *Server) livez(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "alive"})
}

// readyz is the public port's readiness: the same decision as the
// operations listener's, 200 or 503, without the checks behind it.
// Probes and load balancers read only the status code.
func (s *Server) readyz(c *fiber.Ctx) error {
	res, status := s.readiness(c.UserContext())
	return c.Status(status).JSON(ReadyResponse{Status: res.Status})
}

// readiness decides whether this process should get traffic: it is not
// draining, Postgres and Redis answer, and workers serve both job queues
// (without them search and ask would only give 503s). Otherwise 503, so a
// load balancer takes it out of rotation.
func (s *Server) readiness(ctx context.Context) (ReadyResponse, int) {
	res := ReadyResponse{Status: "ready", Checks: map[string]api.Check{}}
	if s.draining.Load() {
		res.Checks["draining"] = api.Check{Status: "down", Error: "shutting down"}
	}
	res.Checks["postgres"] = timed(ctx, s.store.Ping)
	res.Checks["redis"] = timed(ctx, func(ctx context.Context) error { return s.redis.Ping(ctx).Err() })
	for _, q := range []string{jobs.QueueSearch, jobs.QueueAsk} {
		res.Checks["workers:"+q] = timed(ctx, func(ctx context.Context) error {
			if s.queue == nil {
				return errNoWorkers
			}
			alive, err := s.queue.WorkersAlive(ctx, q)
			if err == nil && !alive {
				err = errNoWorkers
			}
			return err
		})
	}
	status := http.StatusOK
	for _, ch := range res.Checks {
		if ch.Status != "ok" {
			res.Status, status = "not_ready", http.StatusServiceUnavailable
		}
	}
	return res, status
}

// OpsHandler serves the operator endpoints on a listener of their own
// (METRICS_ADDR), never on the public port: /livez, /readyz with each
// check, and /metrics with the server's metrics and Deps.Gatherers. It is
// the web counterpart of worker.HealthHandler.
func (s *Server) OpsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /livez", func(rw http.ResponseWriter, _ *http.Request) {
		api.WriteJSON(rw, http.StatusOK, map[string]string{"status": "alive"})
	})
	mux.HandleFunc("GET /readyz", func(rw http.ResponseWriter, r *http.Request) {
		res, status := s.readiness(r.Context())
		api.WriteJSON(rw, status, res)
	})
	g := append(prometheus.Gatherers{s.metrics.registry}, s.gatherers...)
	mux.Handle("GET /metrics", promhttp.HandlerFor(g, promhttp.HandlerOpts{}))
	return mux
}

var errNoWorkers = errors.New("no live workers")
