package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"
	"github.com/valyala/fasthttp"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

// limitsEnv is a Postgres, a Redis, and web servers on them standing for
// separate web processes: each has its own Redis pool and its own caches.
type limitsEnv struct {
	st      *store.Store
	rc      *redis.Client
	servers []*Server
}

var limitsEmailSeq atomic.Int64

func newLimitsEnv(t testing.TB, servers int, now func() time.Time) *limitsEnv {
	t.Helper()
	env := &limitsEnv{st: storetest.NewStore(t)}
	_, env.rc = storetest.NewRedis(t)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	for range servers {
		rc := redis.NewClient(env.rc.Options())
		t.Cleanup(func() { rc.Close() })
		env.servers = append(env.servers, NewTestServer(t, Config{}, Deps{Store: env.st, Redis: rc, Logger: quiet, Now: now}))
	}
	// John 3:16 and nothing else, so /scripture can answer 200.
	_, err := env.st.Pool().Exec(context.Background(), `
		INSERT INTO books (number, osis, name, testament, chapters) VALUES (43, 'John', 'John', 'NT', 21);
		INSERT INTO verses (id, book, chapter, verse, text) VALUES (43003016, 43, 3, 16, 'For God so loved the world');`)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// key creates an account on the plan and returns it with a live key.
func (env *limitsEnv) key(t testing.TB, plan string) (store.Account, string) {
	t.Helper()
	ctx := context.Background()
	a, err := env.st.CreateAccount(ctx, fmt.Sprintf("limits%d@example.com", limitsEmailSeq.Add(1)), "", plan, false)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := env.st.CreateKey(ctx, a.ID, "limits", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a, key
}

func apiRequest(method, path, key string) *http.Request {
	req := httptest.NewRequest(method, path, nil)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	return req
}

func send(t testing.TB, srv *Server, req *http.Request) *http.Response {
	t.Helper()
	res, err := srv.App().Test(req, -1)
	if err != nil {
		t.Error(err)
		return nil
	}
	return res
}

const john316 = "/api/v1/scripture?ref=John+3:16"

// errorOf decodes a JSON error body and checks it is complete.
func errorOf(t testing.TB, res *http.Response) ErrorDetail {
	t.Helper()
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want JSON", ct)
	}
	var body ErrorBody
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, &body); err != nil {
		t.Errorf("error body %q: %v", b, err)
	}
	if body.Error.Code == "" || body.Error.Message == "" || body.Error.RequestID != res.Header.Get("X-Request-Id") {
		t.Errorf("incomplete error body %s", b)
	}
	return body.Error
}

func headerInt(t testing.TB, res *http.Response, name string) int {
	t.Helper()
	v := res.Header.Get(name)
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Errorf("%s = %q, want an integer", name, v)
	}
	return n
}

// checkLimitHeaders asserts that all limit headers are present and sane
// and returns X-RateLimit-Remaining.
func checkLimitHeaders(t testing.TB, res *http.Response, limit int) int {
	t.Helper()
	if got := headerInt(t, res, HeaderRateLimitLimit); got != limit {
		t.Errorf("%s = %d, want %d", HeaderRateLimitLimit, got, limit)
	}
	rem := headerInt(t, res, HeaderRateLimitRemaining)
	if rem < 0 || rem >= limit {
		t.Errorf("%s = %d, want 0..%d", HeaderRateLimitRemaining, rem, limit-1)
	}
	if reset := headerInt(t, res, HeaderRateLimitReset); reset < 1 || reset > 60 {
		t.Errorf("%s = %d, want 1..60", HeaderRateLimitReset, reset)
	}
	headerInt(t, res, HeaderQuotaDaily)
	headerInt(t, res, HeaderQuotaMonthly)
	return rem
}

func checkRetryAfter(t testing.TB, res *http.Response, lo, hi int) {
	t.Helper()
	if ra := headerInt(t, res, fiber.HeaderRetryAfter); ra < lo || ra > hi {
		t.Errorf("Retry-After = %d, want %d..%d", ra, lo, hi)
	}
}

func TestRateLimitSharedAcrossServers(t *testing.T) {
	cases := []struct {
		name string
		plan store.Plan
	}{
		// 5 per minute and 1 in flight: of the 5 the rate limit lets
		// through, some may meet a busy slot and get concurrency_limited.
		{"free plan", store.Plan{Name: store.PlanFree, RequestsPerMinute: 5, ConcurrentRequests: 1, AsksPerDay: 10, AsksPerMonth: 100, MaxActiveKeys: 5}},
		// 5 per minute with room in flight: exactly 5 are served.
		{"5 per minute, 20 in flight", store.Plan{Name: store.PlanBuilder, RequestsPerMinute: 5, ConcurrentRequests: 20, AsksPerDay: 10, AsksPerMonth: 100, MaxActiveKeys: 5}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newLimitsEnv(t, 2, nil)
			if err := env.st.UpdatePlanLimits(context.Background(), tc.plan); err != nil {
				t.Fatal(err)
			}
			_, key := env.key(t, tc.plan.Name)

			var mu sync.Mutex
			codes := map[string]int{}
			var remaining []int
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range 20 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					res := send(t, env.servers[i%2], apiRequest("GET", john316, key))
					if res == nil {
						return
					}
					rem := checkLimitHeaders(t, res, 5)
					code := "ok"
					if res.StatusCode != http.StatusOK {
						if res.StatusCode != http.StatusTooManyRequests {
							t.Errorf("status %d", res.StatusCode)
						}
						code = errorOf(t, res).Code
						switch code {
						case selah.ERATELIMITED:
							checkRetryAfter(t, res, 1, 12)
							if rem != 0 {
								t.Errorf("rate limited with %d remaining", rem)
							}
						case selah.ECONCURRENCY:
							checkRetryAfter(t, res, 1, 1)
						}
					}
					mu.Lock()
					defer mu.Unlock()
					codes[code]++
					if code != selah.ERATELIMITED {
						remaining = append(remaining, rem)
					}
				}()
			}
			close(start)
			wg.Wait()
			t.Logf("outcomes: %v", codes)
			if codes[selah.ERATELIMITED] != 15 || codes["ok"]+codes[selah.ECONCURRENCY] != 5 {
				t.Fatalf("outcomes %v: want exactly 5 through the rate limit and 15 rate_limited", codes)
			}
			if tc.plan.ConcurrentRequests >= 20 && codes["ok"] != 5 {
				t.Fatalf("outcomes %v: want 5 served", codes)
			}
			if codes["ok"] == 0 {
				t.Fatal("nothing was served")
			}
			seen := map[int]bool{}
			for _, r := range remaining {
				seen[r] = true
			}
			if len(seen) != 5 {
				t.Errorf("X-RateLimit-Remaining of the admitted = %v, want 0..4 once each", remaining)
			}
		})
	}
}

// waitForLockWait waits until a query of the database waits on a lock.
func waitForLockWait(t *testing.T, st *store.Store) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var n int
		err := st.Pool().QueryRow(context.Background(), `
			SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no request blocked on the verses lock")
}

func TestConcurrencyLimitSharedAcrossServers(t *testing.T) {
	t.Parallel()
	env := newLimitsEnv(t, 2, nil)
	_, key := env.key(t, store.PlanFree) // 1 request in flight
	ctx := context.Background()

	// Hold a request open: it blocks on the verses table, holding its slot.
	tx, err := env.st.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `LOCK TABLE verses IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	held := make(chan *http.Response, 1)
	go func() { held <- send(t, env.servers[0], apiRequest("GET", john316, key)) }()
	waitForLockWait(t, env.st)

	for i, srv := range env.servers {
		res := send(t, srv, apiRequest("GET", john316, key))
		if res.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("server %d: status %d while a request is in flight, want 429", i, res.StatusCode)
		}
		if code := errorOf(t, res).Code; code != selah.ECONCURRENCY {
			t.Fatalf("server %d: code %s, want concurrency_limited", i, code)
		}
		checkRetryAfter(t, res, 1, 1)
		checkLimitHeaders(t, res, 5)
	}

	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if res := <-held; res == nil || res.StatusCode != http.StatusOK {
		t.Fatalf("held request: %v", res)
	}
	// Its slot was given back: the other server serves the next one.
	if res := send(t, env.servers[1], apiRequest("GET", john316, key)); res.StatusCode != http.StatusOK {
		t.Fatalf("after the held request: status %d (%s)", res.StatusCode, errorOf(t, res).Code)
	}
}

func TestLimitHeadersOnEveryResponse(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 6, 10, 18, 0, 0, 0, time.UTC)
	env := newLimitsEnv(t, 1, func() time.Time { return now })
	srv := env.servers[0]
	a, key := env.key(t, store.PlanFree)

	cases := []struct {
		name      string
		path      string
		status    int
		remaining int // X-RateLimit-Remaining
		reset     int // X-RateLimit-Reset: a full burst is 12 s per used request away
	}{
		{"200", john316, 200, 4, 12},
		{"400 invalid reference", "/api/v1/scripture?ref=Nowhere+1:1", 400, 3, 24},
		{"404 passage not found", "/api/v1/scripture?ref=John+3:17", 404, 2, 36},
	}
	for _, tc := range cases {
		res := send(t, srv, apiRequest("GET", tc.path, key))
		if res.StatusCode != tc.status {
			t.Fatalf("%s: status %d", tc.name, res.StatusCode)
		}
		checkLimitHeaders(t, res, 5)
		if got := headerInt(t, res, HeaderRateLimitRemaining); got != tc.remaining {
			t.Errorf("%s: remaining %d, want %d", tc.name, got, tc.remaining)
		}
		if got := headerInt(t, res, HeaderRateLimitReset); got < tc.reset-1 || got > tc.reset {
			t.Errorf("%s: reset %d, want about %d", tc.name, got, tc.reset)
		}
		if d, m := res.Header.Get(HeaderQuotaDaily), res.Header.Get(HeaderQuotaMonthly); d != "10" || m != "100" {
			t.Errorf("%s: quota headers %s/%s, want 10/100", tc.name, d, m)
		}
		if res.Header.Get(fiber.HeaderRetryAfter) != "" {
			t.Errorf("%s: Retry-After on a response that was not limited", tc.name)
		}
	}

	// An Ask charged through the /ask helpers shows in the next response.
	c := principalCtx(t, srv, a)
	if err := srv.withAskQuota(c, func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	res := send(t, srv, apiRequest("GET", john316, key))
	if d, m := res.Header.Get(HeaderQuotaDaily), res.Header.Get(HeaderQuotaMonthly); d != "9" || m != "99" {
		t.Errorf("quota headers after an Ask %s/%s, want 9/99", d, m)
	}

	// No key, no account: no limit headers.
	res = send(t, srv, apiRequest("GET", john316, ""))
	if res.StatusCode != 401 || res.Header.Get(HeaderRateLimitLimit) != "" {
		t.Errorf("unauthenticated: status %d, %s %q", res.StatusCode, HeaderRateLimitLimit, res.Header.Get(HeaderRateLimitLimit))
	}
}

func TestCORS(t *testing.T) {
	t.Parallel()
	env := newLimitsEnv(t, 1, nil)
	srv := env.servers[0]
	_, key := env.key(t, store.PlanFree)

	// A preflight needs no key.
	req := apiRequest("OPTIONS", "/api/v1/scripture", "")
	req.Header.Set("Origin", "https://app.example")
	req.Header.Set("Access-Control-Request-Method", "GET")
	req.Header.Set("Access-Control-Request-Headers", "authorization")
	res := send(t, srv, req)
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("preflight: status %d", res.StatusCode)
	}
	want := map[string]string{
		"Access-Control-Allow-Origin":  "*",
		"Access-Control-Allow-Methods": "GET,POST,OPTIONS",
		"Access-Control-Allow-Headers": "Authorization,Content-Type,X-Request-Id,If-None-Match",
	}
	for h, v := range want {
		if got := res.Header.Get(h); got != v {
			t.Errorf("preflight %s = %q, want %q", h, got, v)
		}
	}
	if res.Header.Get("Access-Control-Allow-Credentials") != "" {
		t.Error("preflight allows credentials")
	}

	// Every response carries CORS headers, 401 and 429 included.
	exposed := []string{HeaderRateLimitLimit, HeaderRateLimitRemaining, HeaderRateLimitReset,
		HeaderQuotaDaily, HeaderQuotaMonthly, "Retry-After", "X-Request-Id", "ETag", HeaderCorpusEdition, HeaderCorpusChecksum}
	statuses := map[int]bool{}
	for i := range 7 {
		k := key
		if i == 0 {
			k = ""
		}
		req := apiRequest("GET", john316, k)
		req.Header.Set("Origin", "https://app.example")
		res := send(t, srv, req)
		statuses[res.StatusCode] = true
		if got := res.Header.Get("Access-Control-Allow-Origin"); got != "*" {
			t.Errorf("status %d: Access-Control-Allow-Origin = %q", res.StatusCode, got)
		}
		expose := res.Header.Get("Access-Control-Expose-Headers")
		for _, h := range exposed {
			if !strings.Contains(expose, h) {
				t.Errorf("status %d: %s not exposed (%q)", res.StatusCode, h, expose)
			}
		}
	}
	if !statuses[401] || !statuses[200] || !statuses[429] {
		t.Fatalf("statuses %v: want 401, 200 and 429 among them", statuses)
	}
}

// principalCtx is a request context as the auth middleware leaves it.
func principalCtx(t testing.TB, srv *Server, a store.Account) *fiber.Ctx {
	t.Helper()
	c := srv.app.AcquireCtx(&fasthttp.RequestCtx{})
	t.Cleanup(func() { srv.app.ReleaseCtx(c) })
	c.Locals(localPrincipal, &Principal{AccountID: a.ID, Plan: a.Plan})
	return c
}

func TestAskQuotaHelpers(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 6, 10, 18, 0, 0, 0, time.UTC) // 6 h to midnight UTC
	env := newLimitsEnv(t, 2, func() time.Time { return now })
	a, _ := env.key(t, store.PlanFree) // 10 Asks a day
	ctx := context.Background()

	failed := errors.New("ask failed")
	for i := range 5 {
		c := principalCtx(t, env.servers[i%2], a)
		if err := env.servers[i%2].withAskQuota(c, func() error { return failed }); err != failed {
			t.Fatalf("failed ask: %v", err)
		}
		func() {
			defer func() { recover() }()
			env.servers[i%2].withAskQuota(principalCtx(t, env.servers[i%2], a), func() error { panic("boom") })
		}()
	}
	if d, _, _ := env.st.AskCounts(ctx, a.ID, now); d != 0 {
		t.Fatalf("failed Asks charged: %d", d)
	}

	for i := range 10 {
		c := principalCtx(t, env.servers[i%2], a)
		if err := env.servers[i%2].withAskQuota(c, func() error { return nil }); err != nil {
			t.Fatalf("ask %d: %v", i+1, err)
		}
		if got, want := string(c.Response().Header.Peek(HeaderQuotaDaily)), strconv.Itoa(9-i); got != want {
			t.Fatalf("ask %d: %s = %s, want %s", i+1, HeaderQuotaDaily, got, want)
		}
		if got, want := string(c.Response().Header.Peek(HeaderQuotaMonthly)), strconv.Itoa(99-i); got != want {
			t.Fatalf("ask %d: %s = %s, want %s", i+1, HeaderQuotaMonthly, got, want)
		}
	}
	c := principalCtx(t, env.servers[0], a)
	_, err := env.servers[0].reserveAsk(c)
	var ae *selah.Error
	if !errors.As(err, &ae) || ae.Code != selah.EQUOTA || ae.RetryAfter != 6*3600 {
		t.Fatalf("11th Ask: %v, want quota_exceeded with Retry-After 21600", err)
	}
	if got := string(c.Response().Header.Peek(HeaderQuotaDaily)); got != "0" {
		t.Fatalf("%s = %s on quota_exceeded, want 0", HeaderQuotaDaily, got)
	}
	if d, m, _ := env.st.AskCounts(ctx, a.ID, now); d != 10 || m != 10 {
		t.Fatalf("Postgres counts %d/%d, want 10/10", d, m)
	}
}

func TestSlotReleasedWhenHandlerPanics(t *testing.T) {
	t.Parallel()
	env := newLimitsEnv(t, 1, nil)
	srv := env.servers[0]
	_, key := env.key(t, store.PlanBuilder)
	if err := env.st.UpdatePlanLimits(context.Background(), store.Plan{Name: store.PlanBuilder,
		RequestsPerMinute: 100, ConcurrentRequests: 1, AsksPerDay: 1, AsksPerMonth: 1, MaxActiveKeys: 5}); err != nil {
		t.Fatal(err)
	}

	// A test app with the server's own middleware in front of handlers that
	// panic and fail.
	app := fiber.New(fiber.Config{ErrorHandler: srv.errorHandler})
	app.Use(srv.requestID, srv.accessLog, srv.recoverPanic)
	app.Get("/panic", srv.authed(func(c *fiber.Ctx) error { panic("boom") })...)
	app.Get("/fail", srv.authed(func(c *fiber.Ctx) error { return errors.New("boom") })...)
	for i := range 4 {
		path := []string{"/panic", "/fail"}[i%2]
		res, err := app.Test(apiRequest("GET", path, key), -1)
		if err != nil {
			t.Fatal(err)
		}
		// A leaked slot would make the next request concurrency_limited.
		if res.StatusCode != http.StatusInternalServerError {
			t.Fatalf("request %d to %s: status %d (%s), want 500", i+1, path, res.StatusCode, errorOf(t, res).Code)
		}
		if res.Header.Get(HeaderRateLimitLimit) != "100" || res.Header.Get(HeaderQuotaDaily) != "1" {
			t.Fatalf("request %d to %s: limit headers missing", i+1, path)
		}
	}
}

// BenchmarkAuthAndLimits measures what the API middleware adds to a request:
// the same trivial handler is served bare, behind authenticate alone, and
// behind the whole chain (authenticate, admit), called
// straight through fasthttp without a network. The auth cache is warm, as
// it is in production for any key in use; Redis is local.
func BenchmarkAuthAndLimits(b *testing.B) {
	env := newLimitsEnv(b, 1, nil)
	srv := env.servers[0]
	if err := env.st.UpdatePlanLimits(context.Background(), store.Plan{Name: store.PlanInternal,
		RequestsPerMinute: 1 << 30, ConcurrentRequests: 1 << 20, AsksPerDay: 1000, AsksPerMonth: 1000, MaxActiveKeys: 100}); err != nil {
		b.Fatal(err)
	}
	_, key := env.key(b, store.PlanInternal)

	app := fiber.New(fiber.Config{ErrorHandler: srv.errorHandler})
	app.Use(srv.requestID, srv.accessLog, srv.recoverPanic)
	ok := func(c *fiber.Ctx) error { return c.SendStatus(http.StatusNoContent) }
	app.Get("/bare", ok)
	app.Get("/auth", srv.authenticate, ok)
	app.Get("/chain", srv.authed(ok)...)
	h := app.Handler()

	for _, path := range []string{"/bare", "/auth", "/chain"} {
		run := func(b *testing.B, pb interface{ Next() bool }) {
			var ctx fasthttp.RequestCtx
			var req fasthttp.Request
			req.SetRequestURI(path)
			req.Header.Set("Authorization", "Bearer "+key)
			for pb.Next() {
				// As the server does between requests: Init keeps the user
				// values, and with them the previous request's context.
				ctx.ResetUserValues()
				ctx.Init(&req, nil, nil)
				h(&ctx)
				if ctx.Response.StatusCode() != http.StatusNoContent {
					b.Errorf("%s: status %d: %s", path, ctx.Response.StatusCode(), ctx.Response.Body())
					return
				}
			}
		}
		b.Run(strings.TrimPrefix(path, "/"), func(b *testing.B) {
			run(b, loop{b})
		})
		b.Run(strings.TrimPrefix(path, "/")+"-parallel", func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) { run(b, pb) })
		})
	}
}

// loop adapts b.N to the Next of testing.PB.
type loop struct{ b *testing.B }

func (l loop) Next() bool { return l.b.Loop() }

// roundTrips records the commands a Redis client sends, one entry per
// round trip (a pipeline is one entry with all its commands).
type roundTrips struct {
	mu    sync.Mutex
	trips [][]string
}

func (rt *roundTrips) DialHook(next redis.DialHook) redis.DialHook { return next }

func (rt *roundTrips) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		rt.add(cmd)
		return next(ctx, cmd)
	}
}

func (rt *roundTrips) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		rt.add(cmds...)
		return next(ctx, cmds)
	}
}

func (rt *roundTrips) add(cmds ...redis.Cmder) {
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name())
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.trips = append(rt.trips, names)
}

// take returns the round trips so far and forgets them.
func (rt *roundTrips) take() [][]string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	t := rt.trips
	rt.trips = nil
	return t
}

// TestLimitChainRoundTrips: the whole auth-and-limit chain of a request
// whose key is cached is one Redis round trip, one script (per-minute
// limit, concurrency slot and quota read), and giving the slot back is
// one more; a request refused by the per-minute limit is one in all.
func TestLimitChainRoundTrips(t *testing.T) {
	t.Parallel()
	env := newLimitsEnv(t, 1, nil)
	srv := env.servers[0]
	srv.keys = newKeyCache(time.Hour, keyCacheMax) // no lookup, and no unknown-key throttle, after the first
	_, key := env.key(t, store.PlanFree)           // 5 a minute, 1 in flight
	if res := send(t, srv, apiRequest("GET", john316, key)); res.StatusCode != 200 {
		t.Fatalf("first request: %d", res.StatusCode)
	}
	rt := &roundTrips{}
	srv.redis.AddHook(rt)
	want := fmt.Sprint([][]string{{"evalsha"}, {"zrem"}})
	for i := range 4 {
		res := send(t, srv, apiRequest("GET", john316, key))
		if res.StatusCode != 200 {
			t.Fatalf("request %d: %d", i+2, res.StatusCode)
		}
		checkLimitHeaders(t, res, 5)
		if got := fmt.Sprint(rt.take()); got != want {
			t.Fatalf("request %d: round trips %s, want %s", i+2, got, want)
		}
	}
	res := send(t, srv, apiRequest("GET", john316, key))
	if res.StatusCode != http.StatusTooManyRequests || errorOf(t, res).Code != selah.ERATELIMITED {
		t.Fatalf("6th request: %d, want 429 rate_limited", res.StatusCode)
	}
	checkLimitHeaders(t, res, 5)
	checkRetryAfter(t, res, 1, 12)
	if got, want := fmt.Sprint(rt.take()), fmt.Sprint([][]string{{"evalsha"}}); got != want {
		t.Fatalf("refused request: round trips %s, want %s", got, want)
	}
}
