package web

import (
	"context"
	"errors"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/worker/tasks"
)

// Check is the state of one dependency.
type Check struct {
	Status    string  `json:"status"` // "ok" or "down"
	LatencyMS float64 `json:"latencyMs"`
	Error     string  `json:"error,omitempty"`
}

// HealthResponse is the body of GET /health.
type HealthResponse struct {
	Status    string             `json:"status"` // "ok" or "degraded"
	Version   string             `json:"version"`
	Time      string             `json:"time"`
	Checks    map[string]Check   `json:"checks"`
	Corpus    *store.CorpusFacts `json:"corpus"`
	RequestID string             `json:"requestId"`
}

func timed(ctx context.Context, f func(context.Context) error) Check {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	start := time.Now()
	err := f(ctx)
	c := Check{Status: "ok", LatencyMS: float64(time.Since(start).Microseconds()) / 1000}
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
	res := HealthResponse{Status: "ok", Version: s.cfg.Version, Time: time.Now().UTC().Format(time.RFC3339),
		Checks: map[string]Check{}, RequestID: RequestID(c)}
	res.Checks["postgres"] = timed(ctx, s.store.Ping)
	res.Checks["redis"] = timed(ctx, func(ctx context.Context) error { return s.redis.Ping(ctx).Err() })
	if res.Checks["postgres"].Status == "ok" {
		var facts store.CorpusFacts
		chk := timed(ctx, func(ctx context.Context) (err error) {
			facts, err = s.store.CorpusFacts(ctx)
			return err
		})
		if chk.Status == "ok" {
			res.Corpus = &facts
			if facts.Verses == 0 {
				chk = Check{Status: "down", Error: "corpus not ingested"}
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

// ReadyResponse is the body of GET /readyz.
type ReadyResponse struct {
	Status string           `json:"status"` // "ready" or "not_ready"
	Checks map[string]Check `json:"checks"`
}

// livez answers 200 while the process can serve at all; orchestrators
// restart a process that stops answering it. It checks nothing else, so a
// database outage does not make every replica restart at once.
func (s *Server) livez(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "alive"})
}

// readyz answers 200 when this process should get traffic: it is not
// draining, Postgres and Redis answer, and workers serve both job queues
// (without them search and ask would only give 503s). Otherwise 503 with
// the checks that failed, so a load balancer takes it out of rotation.
func (s *Server) readyz(c *fiber.Ctx) error {
	ctx := c.UserContext()
	res := ReadyResponse{Status: "ready", Checks: map[string]Check{}}
	if s.draining.Load() {
		res.Checks["draining"] = Check{Status: "down", Error: "shutting down"}
	}
	res.Checks["postgres"] = timed(ctx, s.store.Ping)
	res.Checks["redis"] = timed(ctx, func(ctx context.Context) error { return s.redis.Ping(ctx).Err() })
	for _, q := range []string{tasks.QueueSearch, tasks.QueueAsk} {
		res.Checks["workers:"+q] = timed(ctx, func(ctx context.Context) error {
			if s.queue == nil {
				return errNoWorkers
			}
			alive, err := s.queue.workersAlive(ctx, q)
			if err == nil && !alive {
				err = errNoWorkers
			}
			return err
		})
	}
	status := fiber.StatusOK
	for _, ch := range res.Checks {
		if ch.Status != "ok" {
			res.Status, status = "not_ready", fiber.StatusServiceUnavailable
		}
	}
	return c.Status(status).JSON(res)
}

var errNoWorkers = errors.New("no live workers")
