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

	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/worker/tasks"
)

// TestOperations: the metrics a team watches are exported, every log line
// of a request carries its id and none carries key material, readiness
// fails while draining, and the queue dashboard is for administrators.
func TestOperations(t *testing.T) {
	logs := &siteLogs{}
	env := newQueueEnv(t, Config{})
	env.srv.log = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	w := env.startWorker(t, env.searcher(t))
	env.startWorkerFor(t, tasks.QueueAsk, env.asker(t, nil))
	key := env.key(t, store.PlanFree)

	if res := send(t, env.srv, apiRequest("GET", "/livez", "")); res.StatusCode != 200 {
		t.Fatalf("livez: %d", res.StatusCode)
	}
	if res := send(t, env.srv, apiRequest("GET", "/readyz", "")); res.StatusCode != 200 {
		t.Fatalf("readyz: %d", res.StatusCode)
	}
	send(t, env.srv, postSearch(key, `{"query":"grace"}`, ""))
	send(t, env.srv, postAsk(key, `{"question":"How can I stop worrying?"}`))
	for range 5 { // the free plan's 5 a minute are spent: rate_limited
		send(t, env.srv, apiRequest("GET", john316, key))
	}
	send(t, env.srv, apiRequest("GET", john316, "svc_live_"+strings.Repeat("A", 49)))

	res := send(t, env.srv, apiRequest("GET", "/metrics", ""))
	body, _ := io.ReadAll(res.Body)
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
	if res := send(t, env.srv, apiRequest("GET", "/readyz", "")); res.StatusCode != 503 {
		t.Fatalf("readyz while draining: %d", res.StatusCode)
	}
	if res := send(t, env.srv, apiRequest("GET", "/livez", "")); res.StatusCode != 200 {
		t.Fatalf("livez while draining: %d", res.StatusCode)
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
