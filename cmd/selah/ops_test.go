package main

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/selahdev/selah/store"
)

// TestOpsListener (issue 14, defect 16): the public port serves /livez and
// a /readyz that says only ready or not; /metrics there is a 404. The
// metrics and the readiness checks are on METRICS_ADDR, in both shapes of
// a deployment: web and worker as two processes, each with a listener of
// its own, and serve with one listener for both parts.
func TestOpsListener(t *testing.T) {
	for _, shape := range []string{"web and worker", "serve"} {
		t.Run(shape, func(t *testing.T) {
			s := newStack(t)
			webOps := "http://" + envValue(s.env, "METRICS_ADDR")
			// jobOps is where the worker's job metrics are: its own
			// listener, or the one listener of serve.
			jobOps := webOps
			if shape == "serve" {
				startProc(t, "serve", s.env, "serve")
			} else {
				workerAddr := freeAddr(t)
				jobOps = "http://" + workerAddr
				startProc(t, "web", s.env, "web")
				startProc(t, "worker", append(s.env, "METRICS_ADDR="+workerAddr), "worker")
			}
			waitStatus(t, s.base(), "/readyz", "", 200, startWithin)
			key := s.account(t, store.PlanInternal, 0)
			if r := call(t, "POST", s.base(), "/api/v1/search", key, `{"query":"grace"}`); r.Status != 200 {
				t.Fatalf("search: %d %s", r.Status, r.Raw)
			}

			if r := call(t, "GET", s.base(), "/livez", "", ""); r.Status != 200 {
				t.Errorf("public /livez: %d %s", r.Status, r.Raw)
			}
			wantTerseReady(t, call(t, "GET", s.base(), "/readyz", "", ""), "ready")
			wantNoPublicMetrics(t, s.base())

			wantMetrics(t, webOps, `selah_http_request_duration_seconds_count{method="POST",route="/api/v1/search",status="200"}`,
				`selah_queue_round_trip_seconds_count{outcome="ok",type="search"}`)
			wantMetrics(t, jobOps, `selah_job_duration_seconds_count{outcome="ok",type="search"}`)
			r := call(t, "GET", webOps, "/readyz", "", "")
			if r.Status != 200 || r.Body["status"] != "ready" {
				t.Fatalf("/readyz on METRICS_ADDR: %d %s", r.Status, r.Raw)
			}
			checks, _ := r.Body["checks"].(map[string]any)
			for _, name := range []string{"postgres", "redis", "workers:search", "workers:ask"} {
				if _, ok := checks[name]; !ok {
					t.Errorf("/readyz on METRICS_ADDR lacks the %s check: %s", name, r.Raw)
				}
			}
			if r := call(t, "GET", webOps, "/livez", "", ""); r.Status != 200 {
				t.Errorf("/livez on METRICS_ADDR: %d %s", r.Status, r.Raw)
			}

			// Postgres gone: both say not ready, only METRICS_ADDR says why.
			s.pg.Down()
			wantTerseReady(t, waitStatus(t, s.base(), "/readyz", "", 503, 5*time.Second), "not_ready")
			r = call(t, "GET", webOps, "/readyz", "", "")
			if pg, _ := r.Body["checks"].(map[string]any)["postgres"].(map[string]any); r.Status != 503 || pg["status"] != "down" {
				t.Fatalf("/readyz on METRICS_ADDR with Postgres down: %d %s", r.Status, r.Raw)
			}
			s.pg.Up()
		})
	}
}

// wantTerseReady checks that a public /readyz answer holds its status and
// nothing else: no dependency names, no timings.
func wantTerseReady(t *testing.T, r httpResult, status string) {
	t.Helper()
	if keys := slices.Collect(maps.Keys(r.Body)); r.Body["status"] != status || len(keys) != 1 {
		t.Fatalf("public /readyz: %d %s, want only {\"status\":%q}", r.Status, r.Raw, status)
	}
	for _, word := range []string{"postgres", "redis", "workers", "latency"} {
		if strings.Contains(strings.ToLower(r.Raw), word) {
			t.Fatalf("public /readyz names %s: %s", word, r.Raw)
		}
	}
}

// wantNoPublicMetrics checks that the public port's /metrics is the
// site's usual 404: a JSON error for a client that asks for JSON, the
// HTML page otherwise (a Prometheus scraper does not ask for JSON), and
// no metrics in either.
func wantNoPublicMetrics(t *testing.T, base string) {
	t.Helper()
	for _, accept := range []string{"application/json", "text/plain;version=0.0.4;q=0.9,*/*;q=0.1"} {
		req, err := http.NewRequest("GET", base+"/metrics", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept", accept)
		res, err := httpClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 404 || strings.Contains(string(raw), "selah_") || strings.Contains(string(raw), "# HELP") {
			t.Fatalf("public /metrics (Accept %s): %d %.300s", accept, res.StatusCode, raw)
		}
		if accept == "application/json" {
			r := httpResult{Status: res.StatusCode, Header: res.Header, Raw: string(raw)}
			json.Unmarshal(raw, &r.Body)
			wantJSONError(t, "public /metrics", r, 404, "not_found")
		}
	}
}

// wantMetrics checks that base's /metrics has each series.
func wantMetrics(t *testing.T, base string, series ...string) {
	t.Helper()
	r := call(t, "GET", base, "/metrics", "", "")
	if r.Status != 200 {
		t.Fatalf("%s/metrics: %d %s", base, r.Status, r.Raw)
	}
	for _, m := range series {
		if !strings.Contains(r.Raw, m) {
			t.Errorf("%s/metrics lacks %s", base, m)
		}
	}
}

// envValue is the last value of name in env, as exec would pass it.
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}
