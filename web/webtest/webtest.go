// Package webtest runs a whole selah deployment inside a test: the real web
// server on a loopback port, over a Postgres database holding the corpus
// and a Redis database of its own, with an in-process worker serving search
// and ask jobs. Clients of the HTTP API (the Go client, the MCP server)
// test against it as they would against production.
package webtest

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/pipeline/pipelinetest"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
	"github.com/selahdev/selah/web"
	"github.com/selahdev/selah/worker"
)

// Env is a running deployment.
type Env struct {
	// URL is the base URL of the server, e.g. http://127.0.0.1:41234.
	URL   string
	Store *store.Store
}

// Start starts a deployment that lives until the test ends. It returns
// once the worker is seen by the web server, so search and ask work at
// once. Logs are discarded unless log is given.
func Start(t testing.TB, log *slog.Logger) *Env {
	t.Helper()
	return StartConfig(t, web.Config{Version: "webtest"}, log)
}

// StartConfig is Start with the web server's configuration (quotas,
// timeouts) set by the test.
func StartConfig(t testing.TB, cfg web.Config, log *slog.Logger) *Env {
	t.Helper()
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ctx := context.Background()
	st := storetest.NewCorpusStore(t)
	_, rc := storetest.NewRedis(t)

	r := pipelinetest.Retriever(t, st)
	// The worker has its own Redis connection, as a separate process would.
	wrc := redis.NewClient(rc.Options())
	w, err := worker.New(worker.Config{Concurrency: 4, ShutdownTimeout: 2 * time.Second}, wrc, log)
	if err != nil {
		t.Fatalf("webtest: worker: %v", err)
	}
	// No generator configured: every Ask gets the deterministic extractive
	// answer, so tests need no network.
	w.HandlePipeline(st, r, pipeline.NewAnswerer(st, r, nil))
	if err := w.Start(ctx); err != nil {
		t.Fatalf("webtest: worker: %v", err)
	}
	t.Cleanup(func() { w.Shutdown(); wrc.Close() })

	q, err := jobs.NewClient(ctx, rc, jobs.Config{}, log)
	if err != nil {
		t.Fatalf("webtest: queue: %v", err)
	}
	t.Cleanup(func() { q.Close() })
	srv, err := web.New(cfg, web.Deps{Store: st, Redis: rc, Logger: log, Queue: q})
	if err != nil {
		t.Fatalf("webtest: server: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("webtest: listen: %v", err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Listener(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("webtest: shutdown: %v", err)
		}
		<-served
	})
	env := &Env{URL: "http://" + ln.Addr().String(), Store: st}
	env.waitReady(t)
	return env
}

// waitReady polls /readyz, which is 200 once workers serve both queues.
func (e *Env) waitReady(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		res, err := http.Get(e.URL + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("webtest: server not ready after 15s (last: %v)", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Key creates an account on plan (store.PlanFree, store.PlanInternal, ...)
// and an API key for it, a test key if test is set. It returns the key and
// its public id.
func (e *Env) Key(t testing.TB, plan string, test bool) (key, id string) {
	t.Helper()
	ctx := context.Background()
	a, err := e.Store.CreateAccount(ctx, "webtest-"+strings.ToLower(rand.Text())+"@example.com", "", plan, false)
	if err != nil {
		t.Fatalf("webtest: account: %v", err)
	}
	key, k, err := e.Store.CreateKey(ctx, a.ID, "webtest", test, nil)
	if err != nil {
		t.Fatalf("webtest: key: %v", err)
	}
	return key, k.ID
}

// Revoke revokes the key with the public id. The server notices within a
// second (it caches key lookups for 500 ms).
func (e *Env) Revoke(t testing.TB, id string) {
	t.Helper()
	if err := e.Store.RevokeKey(context.Background(), id); err != nil {
		t.Fatalf("webtest: revoke: %v", err)
	}
}
