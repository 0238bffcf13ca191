package web

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/store"
)

// TestOperations: the metrics a team watches are exported on the
// operations listener (OpsHandler) and not on the public port, whose
// /readyz says only ready or not (issue 14, defect 16); every log line of
// a request carries its id and none carries key material; readiness fails
// while draining.
func TestOperations(t *testing.T) {
	logs := &siteLogs{}
	env := newQueueEnv(t, Config{})
	env.srv.log = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	w := env.startWorker(t, env.searcher(t))
	env.startWorkerFor(t, jobs.QueueAsk, env.asker(t, nil))
	key := env.key(t, store.PlanFree)

	if res := send(t, env.srv, apiRequest("GET", "/livez", "")); res.StatusCode != 200 {
		t.Fatalf("livez: %d", res.StatusCode)
	}
	ops := httptest.NewServer(env.srv.OpsHandler())
	defer ops.Close()
	wantReadyz(t, send(t, env.srv, apiRequest("GET", "/readyz", "")), ops.URL, 200, "ready")
	send(t, env.srv, postSearch(key, `{"query":"grace"}`, ""))
	send(t, env.srv, postAsk(key, `{"question":"How can I stop worrying?"}`))
	for range 5 { // the free plan's 5 a minute are spent: rate_limited
		send(t, env.srv, apiRequest("GET", john316, key))
	}
	send(t, env.srv, apiRequest("GET", john316, "svc_live_"+strings.Repeat("A", 49)))

	req := apiRequest("GET", "/metrics", "")
	req.Header.Set("Accept", "application/json")
	if res := send(t, env.srv, req); res.StatusCode != 404 || errorOf(t, res).Code != "not_found" {
		t.Fatalf("public /metrics: %d, want 404 not_found", res.StatusCode)
	}
	res, err := http.Get(ops.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, m := range []string{
		`selah_http_request_duration_seconds_count{method="POST",route="/api/v1/search",status="200"}`,
		`selah_limiter_rejections_total{reason="rate_limited"}`,
		`selah_queue_round_trip_seconds_count{outcome="ok",type="search"}`,
		`go_goroutines`,
	} {
		if !strings.Contains(string(body), m) {
			t.Errorf("/metrics lacks %s in\n%s", m, body)
		}
	}
	rec := httptest.NewRecorder()
	w.HealthHandler(env.st).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, m := range []string{
		`selah_job_queue_wait_seconds_count{type="search"}`,
		`selah_job_duration_seconds_count{outcome="ok",type="search"}`,
		`selah_queue_tasks{queue="search",state="pending"}`,
	} {
		if !strings.Contains(rec.Body.String(), m) {
			t.Errorf("worker /metrics lacks %s", m)
		}
	}
	rec = httptest.NewRecorder()
	w.HealthHandler(env.st).ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
	if rec.Code != 200 {
		t.Errorf("worker readyz: %d %s", rec.Code, rec.Body)
	}

	// Logs: JSON, a request id on every request line, no key material.
	n := 0
	for _, line := range bytes.Split([]byte(logs.String()), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var l map[string]any
		if err := json.Unmarshal(line, &l); err != nil {
			t.Fatalf("log line is not JSON: %s", line)
		}
		if l["msg"] == "request" {
			n++
			if id, _ := l["requestId"].(string); id == "" {
				t.Errorf("request log without requestId: %s", line)
			}
		}
	}
	if n < 8 {
		t.Errorf("%d request log lines", n)
	}
	if s := logs.String(); strings.Contains(s, key) || strings.Contains(s, "svc_live_AAAA") || strings.Contains(s, "worrying") {
		t.Error("the logs contain key material or user text")
	}

	// Draining: still serving, but out of rotation.
	env.srv.Drain()
	wantReadyz(t, send(t, env.srv, apiRequest("GET", "/readyz", "")), ops.URL, 503, "not_ready", "draining")
	if res := send(t, env.srv, apiRequest("GET", "/livez", "")); res.StatusCode != 200 {
		t.Fatalf("livez while draining: %d", res.StatusCode)
	}
}

// wantReadyz checks a public /readyz answer, which must hold the status
// and nothing else, against the operations listener's at ops, which must
// have the same status and the checks behind it, including those named.
func wantReadyz(t *testing.T, public *http.Response, ops string, status int, state string, checks ...string) {
	t.Helper()
	var terse map[string]any
	if err := json.NewDecoder(public.Body).Decode(&terse); err != nil || public.StatusCode != status ||
		terse["status"] != state || len(terse) != 1 {
		t.Fatalf("public /readyz: %d %v (%v), want %d and only {\"status\":%q}", public.StatusCode, terse, err, status, state)
	}
	res, err := http.Get(ops + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var detailed ReadyResponse
	if err := json.NewDecoder(res.Body).Decode(&detailed); err != nil || res.StatusCode != status || detailed.Status != state {
		t.Fatalf("ops /readyz: %d %+v (%v), want %d %s", res.StatusCode, detailed, err, status, state)
	}
	for _, name := range append([]string{"postgres", "redis", "workers:search", "workers:ask"}, checks...) {
		if _, ok := detailed.Checks[name]; !ok {
			t.Errorf("ops /readyz lacks the %s check: %+v", name, detailed)
		}
	}
}

// TestQueueDashboard: asynqmon at /admin/queues answers administrators
// only.
func TestQueueDashboard(t *testing.T) {
	env := newQueueEnv(t, Config{})
	site := &siteEnv{srv: env.srv, st: env.st}
	hash, err := HashPassword(sitePassword)
	if err != nil {
		t.Fatal(err)
	}
	adminEmail := siteEmail("ops")
	if _, err := env.st.CreateAccount(context.Background(), adminEmail, hash, "", true); err != nil {
		t.Fatal(err)
	}
	admin := site.browser(t)
	wantRedirect(t, admin.signIn(adminEmail, sitePassword), "/settings/api")
	user := site.browser(t)
	user.mustSignUp(siteEmail("visitor"))

	if p := site.browser(t).get("/admin/queues"); p.status != http.StatusSeeOther || !strings.HasPrefix(p.location(), "/signin") {
		t.Fatalf("signed out: %d %s", p.status, p.location())
	}
	if p := user.get("/admin/queues"); p.status != http.StatusNotFound {
		t.Fatalf("not an admin: %d", p.status)
	}
	p := admin.get("/admin/queues")
	if p.status != http.StatusOK || !strings.Contains(p.body, "<div id=\"root\">") && !strings.Contains(strings.ToLower(p.body), "asynq") {
		t.Fatalf("admin: %d %.300s", p.status, p.body)
	}
	if p := admin.get("/admin/queues/api/queues"); p.status != http.StatusOK || !strings.Contains(p.body, "queues") {
		t.Fatalf("admin API: %d %.300s", p.status, p.body)
	}
	env.srv.closeDashboard()
}
