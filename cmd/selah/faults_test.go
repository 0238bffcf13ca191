package main

// Fault tests: selah as separate processes (selah serve, selah web,
// selah worker) facing the failures of production. Each takes seconds and
// runs in make test; the one that waits for Asynq's crash recovery (about
// a minute and a half) runs only with SELAH_SLOW_FAULTS=1 (make faults).

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

// stack is a database with the corpus and a Redis database, each behind a
// proxy, and the environment selah processes need to use them.
type stack struct {
	st      *store.Store // direct, for setting up accounts
	rc      *redis.Client
	pg, rd  *storetest.Proxy
	env     []string
	webAddr string
}

func newStack(t *testing.T) *stack {
	t.Helper()
	if testing.Short() {
		t.Skip("fault tests run processes; skipped with -short")
	}
	dbURL := storetest.NewCorpusURL(t)
	st, err := store.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	redisURL, rc := storetest.NewRedis(t)
	s := &stack{st: st, rc: rc, pg: storetest.NewProxy(t, "127.0.0.1:5432"), rd: storetest.NewProxy(t, storetest.RedisAddr())}
	s.webAddr = freeAddr(t)
	s.env = []string{
		"DATABASE_URL=" + viaProxy(dbURL, s.pg),
		"REDIS_URL=" + viaProxy(redisURL, s.rd),
		"ADDR=" + s.webAddr,
		// Not the default: other tests' processes may hold it. A worker
		// started with s.env sets its own after this one; the last wins.
		"METRICS_ADDR=" + freeAddr(t),
		"LOG_FORMAT=json",
		"DRAIN_DELAY=0s",
	}
	return s
}

func (s *stack) base() string { return "http://" + s.webAddr }

// account makes an account on plan with a live key. The free plan's
// per-minute limit is raised where asked, in the database where admins
// edit it, so that a test can make more than 5 calls; its Ask quotas stay.
func (s *stack) account(t *testing.T, plan string, rpm int) string {
	t.Helper()
	key, _ := s.accountWithID(t, plan, rpm)
	return key
}

// accountWithID is account that also returns the account's id.
func (s *stack) accountWithID(t *testing.T, plan string, rpm int) (string, int64) {
	t.Helper()
	ctx := context.Background()
	if rpm > 0 {
		plans, err := s.st.Plans(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range plans {
			if p.Name == plan {
				p.RequestsPerMinute = rpm
				if err := s.st.UpdatePlanLimits(ctx, p); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	a, err := s.st.CreateAccount(ctx, fmt.Sprintf("fault%d@example.com", time.Now().UnixNano()), "", plan, false)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := s.st.CreateKey(ctx, a.ID, "fault", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	return key, a.ID
}

func (s *stack) answers(t *testing.T) int {
	t.Helper()
	var n int
	if err := s.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM answers`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// wantJSONError checks that r is a JSON error with the status and code.
func wantJSONError(t *testing.T, what string, r httpResult, status int, code string) {
	t.Helper()
	if r.Status != status || r.code() != code {
		t.Fatalf("%s: %d %s, want %d %s", what, r.Status, r.Raw, status, code)
	}
	if e := r.Body["error"].(map[string]any); e["requestId"] != r.Header.Get("X-Request-Id") || e["message"] == "" {
		t.Fatalf("%s: incomplete error %s", what, r.Raw)
	}
}

func quotaLeft(t *testing.T, r httpResult) int {
	t.Helper()
	n, err := strconv.Atoi(r.Header.Get("X-Quota-Daily-Remaining"))
	if err != nil {
		t.Fatalf("X-Quota-Daily-Remaining %q in %d %s", r.Header.Get("X-Quota-Daily-Remaining"), r.Status, r.Raw)
	}
	return n
}

const john316 = "/api/v1/scripture?ref=John+3:16"

// TestFaultPostgresDown: with PostgreSQL gone, /health says so, requests
// get 503 JSON (never a 500), /readyz takes the process out of rotation;
// when it returns the same process serves again, without a restart.
func TestFaultPostgresDown(t *testing.T) {
	s := newStack(t)
	startProc(t, "serve", s.env, "serve")
	waitStatus(t, s.base(), "/readyz", "", 200, startWithin)
	key := s.account(t, store.PlanInternal, 0)
	if r := call(t, "GET", s.base(), john316, key, ""); r.Status != 200 {
		t.Fatalf("scripture: %d %s", r.Status, r.Raw)
	}

	s.pg.Down()
	h := waitStatus(t, s.base(), "/api/v1/health", "", 503, 5*time.Second)
	checks := h.Body["checks"].(map[string]any)
	if checks["postgres"].(map[string]any)["status"] != "down" || checks["redis"].(map[string]any)["status"] != "ok" {
		t.Fatalf("health: %s", h.Raw)
	}
	waitStatus(t, s.base(), "/readyz", "", 503, 5*time.Second)
	time.Sleep(600 * time.Millisecond) // the key cache (500 ms) has lapsed: auth needs the database
	for _, c := range []struct{ method, path, body string }{
		{"GET", john316, ""},
		{"GET", "/api/v1/topics/love", ""},
		{"POST", "/api/v1/search", `{"query":"grace"}`},
		{"POST", "/api/v1/ask", `{"question":"What is grace?"}`},
	} {
		r := call(t, c.method, s.base(), c.path, key, c.body)
		wantJSONError(t, c.method+" "+c.path+" with Postgres down", r, 503, "service_unavailable")
		if r.Header.Get("Retry-After") == "" {
			t.Errorf("%s: no Retry-After", c.path)
		}
	}

	s.pg.Up()
	waitStatus(t, s.base(), john316, key, 200, 15*time.Second)
	waitStatus(t, s.base(), "/api/v1/health", "", 200, 5*time.Second)
	waitStatus(t, s.base(), "/readyz", "", 200, 10*time.Second)
	if r := call(t, "POST", s.base(), "/api/v1/search", key, `{"query":"grace"}`); r.Status != 200 {
		t.Fatalf("search after recovery: %d %s", r.Status, r.Raw)
	}
}

// TestFaultRedisRestart: Redis restarts without persistence (every key
// gone). The processes reconnect by themselves; Ask quotas are intact,
// re-seeded from the usage recorded in PostgreSQL; no answer is a 500.
func TestFaultRedisRestart(t *testing.T) {
	s := newStack(t)
	startProc(t, "web", s.env, "web")
	startProc(t, "worker", append(s.env, "METRICS_ADDR="+freeAddr(t)), "worker")
	waitStatus(t, s.base(), "/readyz", "", 200, startWithin)
	key := s.account(t, store.PlanFree, 1000)
	for i := 1; i <= 3; i++ {
		r := call(t, "POST", s.base(), "/api/v1/ask", key, `{"question":"How can I stop worrying?"}`)
		if r.Status != 200 || quotaLeft(t, r) != 10-i {
			t.Fatalf("ask %d: %d %s", i, r.Status, r.Raw)
		}
	}

	s.rd.Down()
	r := call(t, "GET", s.base(), john316, key, "")
	if r.Status != 503 && r.Status != 200 { // 200: the key and limits need Redis, but a cached answer may race the outage
		t.Fatalf("scripture with Redis down: %d %s", r.Status, r.Raw)
	}
	if r.Status == 503 {
		wantJSONError(t, "scripture with Redis down", r, 503, "service_unavailable")
	}
	if err := s.rc.FlushDB(context.Background()).Err(); err != nil { // what a restart without persistence leaves
		t.Fatal(err)
	}
	s.rd.Up()

	// Recovery needs no restart: the web process and the worker
	// reconnect; answers meanwhile are JSON errors, never 500s.
	deadline := time.Now().Add(20 * time.Second)
	for {
		r = call(t, "POST", s.base(), "/api/v1/ask", key, `{"question":"How can I stop worrying?"}`)
		if r.Status == 200 {
			break
		}
		if r.Status >= 500 && r.Status != 503 || r.code() == "" || time.Now().After(deadline) {
			t.Fatalf("ask after the restart: %d %s", r.Status, r.Raw)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if left := quotaLeft(t, r); left != 6 {
		t.Fatalf("quota after the Redis restart: %d left, want 6 (3 asks were recorded in Postgres)", left)
	}
}

// slowModel is a fake OpenAI chat API whose every call blocks until the
// test ends; hit receives a value as each call arrives.
func slowModel(t *testing.T) (url string, hit chan struct{}) {
	t.Helper()
	hit = make(chan struct{}, 16)
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hit <- struct{}{}
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	}))
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(stop) }); srv.Close() })
	return srv.URL + "/v1", hit
}

// TestFaultWorkerKilledMidJob: the only worker is killed (SIGKILL) while
// it runs two Asks and two more wait in its queue (issue 14, defect 7).
// Every caller gets a JSON 503 workers_unavailable: the job deadline is a
// minute, so only the facade's watch on the jobs and the worker's
// heartbeat can answer. No Ask is charged, every concurrency slot is free
// again, no answer is stored, the queued jobs are deleted so no later
// worker runs them, and new Asks get 503 at once. The killed jobs are never
// retried (MaxRetry 0), so they cannot turn into duplicate answers: with
// SELAH_SLOW_FAULTS=1 the test also waits for Asynq to recover the
// orphaned tasks and checks they are archived, not run again.
func TestFaultWorkerKilledMidJob(t *testing.T) {
	s := newStack(t)
	model, hit := slowModel(t)
	startProc(t, "web", append(s.env, "ASK_TIMEOUT=60s"), "web")
	workerEnv := append(s.env, "METRICS_ADDR="+freeAddr(t), "WORKER_CONCURRENCY=2", "SELAH_GENERATOR=openai", "OPENAI_BASE_URL="+model,
		"OPENAI_API_KEY=sk-fake", "OPENAI_CHAT_TIMEOUT=60s")
	w := startProc(t, "worker", workerEnv, "worker")
	waitStatus(t, s.base(), "/readyz", "", 200, startWithin)

	// Four accounts on the free plan (one request in flight each), one Ask
	// each: two reach the model, two wait in the queue.
	type caller struct {
		key  string
		acct int64
		done chan httpResult
	}
	ask := func(c caller) {
		go func() {
			c.done <- call(t, "POST", s.base(), "/api/v1/ask", c.key, `{"question":"How can I stop worrying?"}`)
		}()
	}
	callers := make([]caller, 4)
	for i := range callers {
		key, acct := s.accountWithID(t, store.PlanFree, 100)
		callers[i] = caller{key, acct, make(chan httpResult, 1)}
	}
	for _, c := range callers[:2] {
		ask(c)
	}
	for range 2 {
		select {
		case <-hit: // a job is inside the worker, waiting on the model
		case <-time.After(20 * time.Second):
			t.Fatal("the jobs never reached the model")
		}
	}
	for _, c := range callers[2:] {
		ask(c)
	}
	insp := asynq.NewInspectorFromRedisClient(s.rc)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if info, err := insp.GetQueueInfo("ask"); err == nil && info.Active == 2 && info.Pending == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the last two jobs were never queued")
		}
	}
	w.kill()

	var killed []string // task ids of the jobs that were running
	for i, c := range callers {
		r := <-c.done
		wantJSONError(t, fmt.Sprintf("ask %d whose worker died", i+1), r, 503, "workers_unavailable")
		if left := quotaLeft(t, r); left != 10 {
			t.Fatalf("ask %d: a failed ask was charged: %d left", i+1, left)
		}
		// Job ids are scoped by account (issue 14, defect 9).
		id := fmt.Sprintf("acct%d:%s", c.acct, r.Header.Get("X-Request-Id"))
		info, err := insp.GetTaskInfo("ask", id)
		switch {
		case i < 2 && err == nil && info.State == asynq.TaskStateActive && info.MaxRetry == 0:
			killed = append(killed, id)
		case i >= 2 && errors.Is(err, asynq.ErrTaskNotFound):
		default:
			t.Fatalf("task of ask %d after its caller gave up: %+v %v", i+1, info, err)
		}
		// The slot was given back: the free plan allows one request in flight.
		if r := call(t, "GET", s.base(), john316, c.key, ""); r.Status != 200 {
			t.Fatalf("account %d after its ask failed: %d %s", i+1, r.Status, r.Raw)
		}
	}
	if n := s.answers(t); n != 0 {
		t.Fatalf("%d answers stored", n)
	}
	r := call(t, "POST", s.base(), "/api/v1/ask", callers[0].key, `{"question":"How can I stop worrying?"}`)
	wantJSONError(t, "ask without workers", r, 503, "workers_unavailable")

	if os.Getenv("SELAH_SLOW_FAULTS") == "" {
		return
	}
	// A new worker recovers the orphaned tasks once their lease lapses,
	// and archives them: they have no retries left.
	startProc(t, "worker2", append(s.env, "METRICS_ADDR="+freeAddr(t)), "worker")
	deadline := time.Now().Add(3 * time.Minute)
	for _, id := range killed {
		for {
			info, err := insp.GetTaskInfo("ask", id)
			if err == nil && info.State == asynq.TaskStateArchived {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("orphaned task: %+v %v", info, err)
			}
			time.Sleep(time.Second)
		}
	}
	if n := s.answers(t); n != 0 {
		t.Fatalf("the killed jobs ran again: %d answers stored", n)
	}
}

// TestFaultResultSubscriptionLost: the web process's result subscription is
// cut (CLIENT KILL) while its worker runs an Ask (issue 14, defect 7). A
// result published meanwhile would be lost, so the caller gets a JSON 503
// service_unavailable at once rather than at the job's deadline (a
// minute), uncharged. The process subscribes again by itself; the next Ask
// from the same free account (one request in flight) is served, so its
// concurrency slot was given back, and only that Ask is charged.
func TestFaultResultSubscriptionLost(t *testing.T) {
	s := newStack(t)
	model, hit, open := gatedModel(t)
	startProc(t, "web", append(s.env, "ASK_TIMEOUT=60s"), "web")
	startProc(t, "worker", append(s.env, "METRICS_ADDR="+freeAddr(t), "SELAH_GENERATOR=openai", "OPENAI_BASE_URL="+model,
		"OPENAI_API_KEY=sk-fake", "OPENAI_CHAT_TIMEOUT=60s"), "worker")
	waitStatus(t, s.base(), "/readyz", "", 200, startWithin)
	key := s.account(t, store.PlanFree, 100)

	done := make(chan httpResult, 1)
	go func() {
		done <- call(t, "POST", s.base(), "/api/v1/ask", key, `{"question":"How can I stop worrying?"}`)
	}()
	select {
	case <-hit: // the worker is inside the job, waiting on the model
	case <-time.After(20 * time.Second):
		t.Fatal("the job never reached the model")
	}
	if n := storetest.KillSubscribers(t, s.rc); n == 0 {
		t.Fatal("no subscriber connection to kill")
	}
	r := <-done
	wantJSONError(t, "ask whose result subscription broke", r, 503, "service_unavailable")
	if left := quotaLeft(t, r); left != 10 {
		t.Fatalf("a failed ask was charged: %d left", left)
	}
	open() // the first job now finishes; its result finds no caller

	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		r = call(t, "POST", s.base(), "/api/v1/ask", key, `{"question":"How can I stop worrying?"}`)
		if r.Status == 200 {
			break
		}
		// While the subscription is being restored, Asks are refused.
		if r.code() != "service_unavailable" || time.Now().After(deadline) {
			t.Fatalf("ask after the subscription broke: %d %s", r.Status, r.Raw)
		}
	}
	if left := quotaLeft(t, r); left != 9 {
		t.Fatalf("quota after one failed and one served ask: %d left, want 9", left)
	}
}

// TestFaultSlowGenerator: deadlines hold against a model that never
// answers. With a generator timeout shorter than the job's, the Ask falls
// back to the extractive answer (200); with a longer one the caller gets
// 504 at the job's deadline, uncharged.
func TestFaultSlowGenerator(t *testing.T) {
	s := newStack(t)
	model, _ := slowModel(t)
	startProc(t, "web", append(s.env, "ASK_TIMEOUT=2s"), "web")
	env := append(s.env, "METRICS_ADDR="+freeAddr(t), "SELAH_GENERATOR=openai", "OPENAI_BASE_URL="+model, "OPENAI_API_KEY=sk-fake")
	w := startProc(t, "worker", append(env, "OPENAI_CHAT_TIMEOUT=300ms", "OPENAI_CHAT_RETRIES=0"), "worker")
	waitStatus(t, s.base(), "/readyz", "", 200, startWithin)
	key := s.account(t, store.PlanFree, 1000)

	r := call(t, "POST", s.base(), "/api/v1/ask", key, `{"question":"How can I stop worrying?"}`)
	if r.Status != 200 || r.Body["generator"] != "extractive" || quotaLeft(t, r) != 9 {
		t.Fatalf("ask with a timed-out model: %d %s", r.Status, r.Raw)
	}
	w.kill()
	startProc(t, "worker2", append(env, "OPENAI_CHAT_TIMEOUT=60s"), "worker")
	time.Sleep(3500 * time.Millisecond) // the killed worker's heartbeat lapses
	// worker2 may still be loading its indexes: until its first heartbeat
	// an Ask is refused at once (503, uncharged), so ask again until it runs.
	for deadline := time.Now().Add(startWithin); ; time.Sleep(500 * time.Millisecond) {
		r = call(t, "POST", s.base(), "/api/v1/ask", key, `{"question":"How can I stop worrying?"}`)
		if r.code() != "workers_unavailable" || time.Now().After(deadline) {
			break
		}
	}
	wantJSONError(t, "ask past its deadline", r, 504, "timeout")
	if left := quotaLeft(t, r); left != 9 {
		t.Fatalf("a timed-out ask was charged: %d left", left)
	}
}

// TestFaultHostileInput: oversized, deeply nested, invalid or abusive
// requests get a quick JSON 4xx over a real connection.
func TestFaultHostileInput(t *testing.T) {
	s := newStack(t)
	startProc(t, "serve", s.env, "serve")
	waitStatus(t, s.base(), "/readyz", "", 200, startWithin)
	key := s.account(t, store.PlanInternal, 0)

	// A 2 MiB body is refused from its Content-Length, before it is read:
	// the answer comes while the client has sent only the headers.
	res, body := rawRequest(t, s.webAddr, fmt.Sprintf("POST /api/v1/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n", key, 2<<20))
	if e, _ := body["error"].(map[string]any); res.StatusCode != 413 || e["code"] != "request_too_large" {
		t.Fatalf("2 MiB body: %d %v", res.StatusCode, body)
	}
	deep := strings.Repeat("[", 30000) + strings.Repeat("]", 30000)
	wantJSONError(t, "deep JSON", call(t, "POST", s.base(), "/api/v1/search", key, deep), 400, "invalid_request")
	deepObj := strings.Repeat(`{"query":`, 5000) + `"x"` + strings.Repeat("}", 5000)
	wantJSONError(t, "deep object", call(t, "POST", s.base(), "/api/v1/ask", key, deepObj), 400, "invalid_request")
	wantJSONError(t, "invalid UTF-8", call(t, "POST", s.base(), "/api/v1/ask", key, "{\"question\":\"\xff\xfe\"}"), 400, "invalid_request")
	wantJSONError(t, "NUL in ref", call(t, "GET", s.base(), "/api/v1/scripture?ref=John%003:16", key, ""), 400, "invalid_reference")

	// Header abuse: one enormous header, and very many small ones. Sent
	// over a raw connection: the server answers once its header buffer is
	// full, before the client has finished writing, as it should.
	for name, headers := range map[string]string{
		"one 64 KiB header": "X-Junk: " + strings.Repeat("x", 64<<10) + "\r\n",
		"2,000 headers":     strings.Repeat("X-Junk: x\r\n", 2000),
	} {
		res, body := rawRequest(t, s.webAddr, "GET "+john316+" HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+key+"\r\n"+headers+"\r\n")
		e, _ := body["error"].(map[string]any)
		if res.StatusCode != 431 || e["code"] != "headers_too_large" || e["requestId"] == "" || res.Header.Get("X-Request-Id") == "" {
			t.Fatalf("%s: %d %v", name, res.StatusCode, body)
		}
	}
	// A bad key in a loop costs nothing but refusals.
	for i := 0; i < 20; i++ {
		wantJSONError(t, "forged key", call(t, "GET", s.base(), john316, "svc_live_"+strings.Repeat("A", 49), ""), 401, "invalid_api_key")
	}
	if r := call(t, "GET", s.base(), john316, key, ""); r.Status != 200 {
		t.Fatalf("after the abuse: %d", r.Status)
	}
}

// rawRequest writes head to a new connection as it is and reads one
// response with its JSON body.
func rawRequest(t *testing.T, addr, head string) (*http.Response, map[string]any) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	go conn.Write([]byte(head)) // may be cut short by the server's answer
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	json.NewDecoder(res.Body).Decode(&body)
	return res, body
}

// delayedModel is a fake OpenAI chat API that answers after delay with a
// draft citing the first candidate; hit receives a value as each call
// arrives.
func delayedModel(t *testing.T, delay time.Duration) (url string, hit chan struct{}) {
	t.Helper()
	hit = make(chan struct{}, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hit <- struct{}{}
		time.Sleep(delay)
		writeDraft(w)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", hit
}

// gatedModel is delayedModel whose calls wait until open is called.
func gatedModel(t *testing.T) (url string, hit chan struct{}, open func()) {
	t.Helper()
	hit, gate := make(chan struct{}, 16), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hit <- struct{}{}
		select {
		case <-gate:
			writeDraft(w)
		case <-r.Context().Done():
		}
	}))
	var once sync.Once
	open = func() { once.Do(func() { close(gate) }) }
	t.Cleanup(func() { open(); srv.Close() })
	return srv.URL + "/v1", hit, open
}

// writeDraft answers a chat completion with a draft citing the first
// candidate.
func writeDraft(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1700000000, "model": "fake",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant",
			"content": `{"answer":"Scripture speaks to this.","summary":"It does.","citations":[1]}`}}},
		"usage": map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
	})
}

// TestGracefulShutdown: on SIGTERM a worker leaves the live set (new jobs
// get 503 at once) but finishes the job it is running; a web process fails
// /readyz, keeps serving its in-flight request to the end, and exits 0.
func TestGracefulShutdown(t *testing.T) {
	s := newStack(t)
	model, hit := delayedModel(t, 1500*time.Millisecond)
	web := startProc(t, "web", append(s.env, "DRAIN_DELAY=3s"), "web")
	workerEnv := append(s.env, "SELAH_GENERATOR=openai", "OPENAI_BASE_URL="+model, "OPENAI_API_KEY=sk-fake")
	w := startProc(t, "worker", append(workerEnv, "METRICS_ADDR="+freeAddr(t)), "worker")
	waitStatus(t, s.base(), "/readyz", "", 200, startWithin)
	key := s.account(t, store.PlanInternal, 0)
	ask := func() chan httpResult {
		done := make(chan httpResult, 1)
		go func() {
			done <- call(t, "POST", s.base(), "/api/v1/ask", key, `{"question":"How can I stop worrying?"}`)
		}()
		return done
	}

	done := ask()
	<-hit
	w.cmd.Process.Signal(syscall.SIGTERM)
	if r := <-done; r.Status != 200 || r.Body["generator"] != "openai" {
		t.Fatalf("the job in flight when its worker stopped: %d %s", r.Status, r.Raw)
	}
	<-w.done
	if code := w.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("worker exit code %d", code)
	}
	wantJSONError(t, "ask with the worker gone", call(t, "POST", s.base(), "/api/v1/ask", key, `{"question":"Why pray?"}`), 503, "workers_unavailable")

	startProc(t, "worker2", append(workerEnv, "METRICS_ADDR="+freeAddr(t)), "worker")
	waitStatus(t, s.base(), "/readyz", "", 200, startWithin)
	done = ask()
	<-hit
	web.cmd.Process.Signal(syscall.SIGTERM)
	waitStatus(t, s.base(), "/readyz", "", 503, 2500*time.Millisecond) // draining, still answering
	if r := <-done; r.Status != 200 {
		t.Fatalf("the request in flight when web stopped: %d %s", r.Status, r.Raw)
	}
	<-web.done
	if code := web.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("web exit code %d", code)
	}
}
