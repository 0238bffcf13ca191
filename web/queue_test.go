package web

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/pipeline/pipelinetest"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
	"github.com/selahdev/selah/worker"
)

// queueEnv is a web server with its job facade on a real Redis, and a
// Postgres holding the full corpus; workers are started per test.
type queueEnv struct {
	st  *store.Store
	rc  *redis.Client
	q   *jobs.Client
	srv *Server
	log *slog.Logger
}

func newQueueEnv(t testing.TB, cfg Config) *queueEnv {
	t.Helper()
	return newQueueEnvAt(t, cfg, nil)
}

// newQueueEnvAt is newQueueEnv with the server's business clock (key
// expiry, quota windows) set to now.
func newQueueEnvAt(t testing.TB, cfg Config, now func() time.Time) *queueEnv {
	t.Helper()
	env := &queueEnv{st: storetest.NewCorpusStore(t), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	_, env.rc = storetest.NewRedis(t)
	q, err := jobs.NewClient(context.Background(), env.rc, jobs.Config{}, env.log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	env.q = q
	env.srv = NewTestServer(t, cfg, Deps{Store: env.st, Redis: env.rc, Logger: env.log, Queue: q, Now: now, Mailer: &outbox{}})
	return env
}

// startWorker starts a worker with its own Redis connection, as a separate
// process would have, serving search jobs with h.
func (env *queueEnv) startWorker(t testing.TB, h worker.Handler) *worker.Worker {
	t.Helper()
	return env.startWorkerFor(t, jobs.QueueSearch, h)
}

// startWorkerFor starts a worker serving one queue with h.
func (env *queueEnv) startWorkerFor(t testing.TB, queue string, h worker.Handler) *worker.Worker {
	t.Helper()
	rc := redis.NewClient(env.rc.Options())
	w, err := worker.New(worker.Config{Concurrency: 2, ShutdownTimeout: 2 * time.Second, Queues: []string{queue}}, rc, env.log)
	if err != nil {
		t.Fatal(err)
	}
	w.Handle(queue, h)
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Shutdown(); rc.Close() })
	return w
}

// searcher is the real search handler over the test corpus.
func (env *queueEnv) searcher(t testing.TB) worker.Handler {
	t.Helper()
	return (&worker.Searcher{Store: env.st, Retriever: pipelinetest.Retriever(t, env.st)}).Handle
}

func (env *queueEnv) key(t testing.TB, plan string) string {
	t.Helper()
	return env.keyOf(t, plan, false)
}

// keyOf creates an account on plan and a live or test key for it.
func (env *queueEnv) keyOf(t testing.TB, plan string, test bool) string {
	t.Helper()
	ctx := context.Background()
	a, err := env.st.CreateAccount(ctx, "q"+newRequestID()+"@example.com", "", plan, false)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := env.st.CreateKey(ctx, a.ID, "queue", test, nil)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func postSearch(key, body, requestID string) *http.Request {
	req := httptest.NewRequest("POST", "/api/v1/search", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	if requestID != "" {
		req.Header.Set("X-Request-Id", requestID)
	}
	return req
}

func decodeSearch(t testing.TB, res *http.Response) api.SearchResponse {
	t.Helper()
	var out api.SearchResponse
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// counting wraps a handler to count the jobs it ran.
func counting(h worker.Handler, n *atomic.Int64) worker.Handler {
	return func(ctx context.Context, id string, p []byte) (any, error) {
		n.Add(1)
		return h(ctx, id, p)
	}
}

// TestSearchThroughTwoWorkers sends searches through the facade to two
// worker processes until both have served some, and checks every answer
// belongs to its own request.
func TestSearchThroughTwoWorkers(t *testing.T) {
	env := newQueueEnv(t, Config{})
	h := env.searcher(t)
	var a, b atomic.Int64
	env.startWorker(t, counting(h, &a))
	env.startWorker(t, counting(h, &b))
	key := env.key(t, store.PlanInternal)

	queries := map[string]string{
		"For God so loved the world":              "John 3:16",
		"The LORD is my shepherd":                 "Psalms 23:1",
		"John 11:35":                              "John 11:35",
		"In the beginning God created the heaven": "Genesis 1:1",
	}
	for round := 0; round < 20 && (a.Load() == 0 || b.Load() == 0); round++ {
		var wg sync.WaitGroup
		for q, want := range queries {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := send(t, env.srv, postSearch(key, `{"query":`+jsonString(q)+`,"limit":3}`, ""))
				if res == nil {
					return
				}
				if res.StatusCode != 200 {
					t.Errorf("%q: status %d: %+v", q, res.StatusCode, errorOf(t, res))
					return
				}
				out := decodeSearch(t, res)
				if out.RequestID != res.Header.Get("X-Request-Id") || out.Query != q || len(out.Results) == 0 {
					t.Errorf("%q: response %+v", q, out)
					return
				}
				if out.Results[0].Reference != want || out.Results[0].Translation != "KJV" {
					t.Errorf("%q: first result %+v, want %s", q, out.Results[0], want)
				}
			}()
		}
		wg.Wait()
	}
	if a.Load() == 0 || b.Load() == 0 {
		t.Fatalf("jobs per worker: %d and %d; want both to serve", a.Load(), b.Load())
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestSearchWithoutWorkers: no worker serves the queue, so the caller gets
// 503 workers_unavailable at once. The job deadline is a minute, so an
// answer that waited for it would stall the test, not pass it.
func TestSearchWithoutWorkers(t *testing.T) {
	env := newQueueEnv(t, Config{SearchTimeout: time.Minute})
	key := env.key(t, store.PlanInternal)
	res := send(t, env.srv, postSearch(key, `{"query":"grace"}`, ""))
	if res.StatusCode != 503 || errorOf(t, res).Code != selah.EWORKERSUNAVAILABLE {
		t.Fatalf("status %d", res.StatusCode)
	}
	checkRetryAfter(t, res, 1, 30)

	// A pool that stops is noticed as soon as its workers leave the live
	// set and the facade's short liveness cache lapses.
	w := env.startWorker(t, env.searcher(t))
	if res := send(t, env.srv, postSearch(key, `{"query":"grace"}`, "")); res.StatusCode != 200 {
		t.Fatalf("with a worker: %d", res.StatusCode)
	}
	w.Shutdown()
	env.srv.cfg.SearchTimeout = 2 * time.Second
	for i := 0; ; i++ {
		res := send(t, env.srv, postSearch(key, `{"query":"grace"}`, ""))
		code := errorOf(t, res).Code
		if code == selah.EWORKERSUNAVAILABLE {
			break
		}
		if code != selah.ETIMEOUT || i > 3 {
			t.Fatalf("after shutdown: %d %s", res.StatusCode, code)
		}
	}
}

// TestSlowJobTimesOut: a job slower than its deadline answers 504 timeout;
// its late result is dropped and answers no other request, not even one
// that reuses its X-Request-Id (refused with 409 while the first job still
// runs, served normally after).
func TestSlowJobTimesOut(t *testing.T) {
	env := newQueueEnv(t, Config{SearchTimeout: 300 * time.Millisecond})
	release := make(chan struct{})
	env.startWorker(t, func(ctx context.Context, id string, p []byte) (any, error) {
		args, err := jobs.DecodeArgs[jobs.SearchArgs](p)
		if err != nil {
			return nil, err
		}
		if args.Query == "slow" {
			<-release // ignores ctx: the worst case, a job that will not stop
		}
		return api.SearchResponse{Query: args.Query, RequestID: id, Strategy: "test", Results: []api.SearchResult{}}, nil
	})
	key := env.key(t, store.PlanInternal)

	const id = "client-chosen-id-0001"
	res := send(t, env.srv, postSearch(key, `{"query":"slow"}`, id))
	if res.StatusCode != 504 || errorOf(t, res).Code != selah.ETIMEOUT {
		t.Fatalf("slow job: status %d", res.StatusCode)
	}
	// Another request goes on normally while the slow job still runs.
	if res := send(t, env.srv, postSearch(key, `{"query":"other"}`, "")); res.StatusCode != 200 || decodeSearch(t, res).Query != "other" {
		t.Fatalf("other request: %d", res.StatusCode)
	}
	// The same request id is refused while its first job is still held.
	if res := send(t, env.srv, postSearch(key, `{"query":"again"}`, id)); res.StatusCode != 409 || errorOf(t, res).Code != selah.ECONFLICT {
		t.Fatalf("reused id while the first job runs: %d", res.StatusCode)
	}
	// Issue 14 (9): job ids are scoped by account, so another account
	// sending the same X-Request-Id at the same time is served.
	other := env.key(t, store.PlanInternal)
	if res := send(t, env.srv, postSearch(other, `{"query":"mine"}`, id)); res.StatusCode != 200 || decodeSearch(t, res).Query != "mine" {
		t.Fatalf("another account with the same request id: %d", res.StatusCode)
	}
	close(release) // the slow job now publishes its late result
	for i := 0; ; i++ {
		res := send(t, env.srv, postSearch(key, `{"query":"again"}`, id))
		if res.StatusCode == 409 && i < 100 {
			time.Sleep(10 * time.Millisecond) // the first job is finishing
			continue
		}
		if res.StatusCode != 200 {
			t.Fatalf("reused id after the slow job: %d", res.StatusCode)
		}
		if got := decodeSearch(t, res); got.Query != "again" {
			t.Fatalf("the late result leaked into the next request: %+v", got)
		}
		break
	}
	if n := env.q.Waiting(); n != 0 {
		t.Fatalf("%d waiters left behind", n)
	}
}

// TestSearchRequestValidation: bad bodies are 400 invalid_request naming
// the field, before any job is enqueued (no worker runs here).
func TestSearchRequestValidation(t *testing.T) {
	env := newQueueEnv(t, Config{})
	key := env.key(t, store.PlanInternal)
	for _, c := range []struct {
		name, contentType, body, mention string
	}{
		{"not json", "application/json", `{"query":`, "JSON"},
		{"array", "application/json", `["grace"]`, "object"},
		{"missing query", "application/json", `{"limit":3}`, `"query"`},
		{"empty query", "application/json", `{"query":"   "}`, `"query"`},
		{"query too long", "application/json", `{"query":"` + strings.Repeat("a", 501) + `"}`, `"query"`},
		{"query wrong type", "application/json", `{"query":7}`, `"query"`},
		{"limit zero", "application/json", `{"query":"grace","limit":0}`, `"limit"`},
		{"limit too big", "application/json", `{"query":"grace","limit":21}`, `"limit"`},
		{"limit fraction", "application/json", `{"query":"grace","limit":2.5}`, `"limit"`},
		{"limit string", "application/json", `{"query":"grace","limit":"3"}`, `"limit"`},
		{"unknown field", "application/json", `{"query":"grace","mode":"x"}`, `"mode"`},
		{"trailing data", "application/json", `{"query":"grace"} {}`, "single"},
		{"form body", "application/x-www-form-urlencoded", `query=grace`, "Content-Type"},
		{"no content type", "", `{"query":"grace"}`, "Content-Type"},
		{"invalid utf-8", "application/json", "{\"query\":\"\xff\"}", "UTF-8"},
		// Issue 14 (14): duplicate keys and case-mismatched names are
		// refused like unknown fields, not resolved last-wins or by case.
		{"duplicate key", "application/json", `{"query":"grace","query":"mercy"}`, `"query"`},
		{"duplicate nested in value", "application/json", `{"query":"grace","limit":3,"limit":4}`, `"limit"`},
		{"case-mismatched name", "application/json", `{"Query":"grace"}`, `"Query"`},
		// Issue 14 (4): NUL and other control characters never reach
		// Postgres; the error names the field.
		{"nul in query", "application/json", `{"query":"gra\u0000ce"}`, `"query"`},
		{"escape char in query", "application/json", `{"query":"grace\u001b[31m"}`, `"query"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := postSearch(key, c.body, "")
			req.Header.Set("Content-Type", c.contentType)
			res := send(t, env.srv, req)
			e := errorOf(t, res)
			if res.StatusCode != 400 || e.Code != selah.EINVALID || !strings.Contains(e.Message, c.mention) {
				t.Fatalf("status %d, error %+v; want 400 invalid_request mentioning %s", res.StatusCode, e, c.mention)
			}
		})
	}
	// 500 characters is allowed (counted in characters, not bytes).
	res := send(t, env.srv, postSearch(key, `{"query":"`+strings.Repeat("é", 500)+`"}`, ""))
	if res.StatusCode != 503 {
		t.Fatalf("500-character query: %d, want it accepted (503 without workers)", res.StatusCode)
	}
}

// TestSearchCountsAgainstLimits: /search is behind the same per-account
// limits: a free account gets 5 requests a minute.
func TestSearchCountsAgainstLimits(t *testing.T) {
	env := newQueueEnv(t, Config{})
	env.startWorker(t, env.searcher(t))
	key := env.key(t, store.PlanFree)
	for i := 0; i < 5; i++ {
		if res := send(t, env.srv, postSearch(key, `{"query":"faith"}`, "")); res.StatusCode != 200 {
			t.Fatalf("request %d: %d", i+1, res.StatusCode)
		}
	}
	res := send(t, env.srv, postSearch(key, `{"query":"faith"}`, ""))
	if res.StatusCode != 429 || errorOf(t, res).Code != selah.ERATELIMITED {
		t.Fatalf("6th request: %d", res.StatusCode)
	}
	checkRetryAfter(t, res, 1, 60)
}

// blockingSearch is a search handler whose "slow…" queries report on
// started and then block, ignoring their context, until release is closed.
func blockingSearch(started chan<- string, release <-chan struct{}) worker.Handler {
	return func(ctx context.Context, id string, p []byte) (any, error) {
		args, err := jobs.DecodeArgs[jobs.SearchArgs](p)
		if err != nil {
			return nil, err
		}
		if strings.HasPrefix(args.Query, "slow") {
			started <- args.Query
			<-release
		}
		return api.SearchResponse{Query: args.Query, RequestID: id, Strategy: "test", Results: []api.SearchResult{}}, nil
	}
}

// TestJobsFailWhenTheirWorkersStop: issue 14 (7). The only worker stops
// while three jobs wait: two run on it and are handed back to the queue
// when its shutdown times out, the third was never started. Each caller
// gets 503 workers_unavailable instead of waiting for the deadline (a
// minute here, so an answer that waited for it would stall the test, not
// pass it), and no job is left in the queue for a later worker to run.
func TestJobsFailWhenTheirWorkersStop(t *testing.T) {
	env := newQueueEnv(t, Config{SearchTimeout: time.Minute})
	started, release := make(chan string, 3), make(chan struct{})
	t.Cleanup(func() { close(release) })
	w := env.startWorker(t, blockingSearch(started, release))
	key := env.key(t, store.PlanInternal)

	results := make(chan *http.Response, 3)
	search := func(q string) {
		go func() { results <- send(t, env.srv, postSearch(key, `{"query":"`+q+`"}`, "")) }()
	}
	search("slow one")
	search("slow two")
	<-started
	<-started // both of the worker's slots are taken
	search("slow three")
	insp := asynq.NewInspectorFromRedisClient(env.rc)
	for i := 0; ; i++ {
		info, err := insp.GetQueueInfo(jobs.QueueSearch)
		if err == nil && info.Pending == 1 {
			break
		}
		if i > 500 {
			t.Fatalf("the third job was never queued: %+v %v", info, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	go w.Shutdown()

	for range 3 {
		res := <-results
		if e := errorOf(t, res); res.StatusCode != 503 || e.Code != selah.EWORKERSUNAVAILABLE {
			t.Fatalf("a job whose worker stopped: %d %+v", res.StatusCode, e)
		}
		checkRetryAfter(t, res, 1, 30)
	}
	info, err := insp.GetQueueInfo(jobs.QueueSearch)
	if err != nil {
		t.Fatal(err)
	}
	if info.Pending != 0 || info.Active != 0 {
		t.Fatalf("jobs left in the queue after their callers gave up: %+v", info)
	}
}

// TestResultSubscriptionLost: issue 14 (7). The facade's result
// subscription is cut (CLIENT KILL) while a job runs: a result published
// meanwhile would be lost, so the caller gets 503 service_unavailable at
// once instead of waiting for the deadline (a minute). The facade
// subscribes again by itself and serves the next search.
func TestResultSubscriptionLost(t *testing.T) {
	env := newQueueEnv(t, Config{SearchTimeout: time.Minute})
	started, release := make(chan string, 1), make(chan struct{})
	env.startWorker(t, blockingSearch(started, release))
	key := env.key(t, store.PlanInternal)

	done := make(chan *http.Response, 1)
	go func() { done <- send(t, env.srv, postSearch(key, `{"query":"slow"}`, "")) }()
	<-started
	// The facade's, and the worker's Asynq cancellation channel.
	if n := storetest.KillSubscribers(t, env.rc); n == 0 {
		t.Fatal("no subscriber connection to kill")
	}
	res := <-done
	if e := errorOf(t, res); res.StatusCode != 503 || e.Code != selah.EUNAVAILABLE {
		t.Fatalf("a job whose result subscription broke: %d %+v", res.StatusCode, e)
	}
	checkRetryAfter(t, res, 1, 30)
	close(release) // its late result finds no waiter

	for i := 0; ; i++ {
		res := send(t, env.srv, postSearch(key, `{"query":"grace"}`, ""))
		if res.StatusCode == 200 {
			if got := decodeSearch(t, res); got.Query != "grace" {
				t.Fatalf("after resubscribing: %+v", got)
			}
			break
		}
		// Until the subscription is back, searches are refused at once.
		if e := errorOf(t, res); e.Code != selah.EUNAVAILABLE || i > 100 {
			t.Fatalf("search after the subscription broke: %d %+v", res.StatusCode, e)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
