package web_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/store/storetest"
	"github.com/selahdev/selah/web"
)

func decodeError(t *testing.T, res *http.Response) web.ErrorDetail {
	t.Helper()
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type = %q, want JSON", ct)
	}
	var body web.ErrorBody
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, &body); err != nil {
		t.Fatalf("error body %q: %v", b, err)
	}
	if body.Error.Code == "" || body.Error.Message == "" || body.Error.RequestID == "" {
		t.Fatalf("incomplete error body: %s", b)
	}
	if got := res.Header.Get("X-Request-Id"); got != body.Error.RequestID {
		t.Fatalf("X-Request-Id %q != body requestId %q", got, body.Error.RequestID)
	}
	return body.Error
}

func TestErrorsAreJSON(t *testing.T) {
	st := storetest.NewStore(t)
	_, rc := storetest.NewRedis(t)
	srv := web.NewTestServer(t, web.Config{}, web.Deps{Store: st, Redis: rc})
	srv.App().Get("/api/v1/test-panic", func(c *fiber.Ctx) error { panic("boom") })

	cases := []struct {
		name, method, path string
		status             int
		code               string
	}{
		{"unknown route", "GET", "/api/v1/nope", 404, "not_found"},
		{"wrong method", "DELETE", "/api/v1/health", 405, "method_not_allowed"},
		{"panic", "GET", "/api/v1/test-panic", 500, "internal_error"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := srv.App().Test(httptest.NewRequest(tc.method, tc.path, nil), -1)
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != tc.status {
				t.Fatalf("status = %d, want %d", res.StatusCode, tc.status)
			}
			e := decodeError(t, res)
			if e.Code != tc.code {
				t.Fatalf("code = %q, want %q", e.Code, tc.code)
			}
			if strings.Contains(e.Message, "boom") || strings.Contains(e.Message, "goroutine") {
				t.Fatalf("internal detail leaked: %q", e.Message)
			}
		})
	}
}

func TestRequestIDEchoed(t *testing.T) {
	st := storetest.NewStore(t)
	_, rc := storetest.NewRedis(t)
	srv := web.NewTestServer(t, web.Config{}, web.Deps{Store: st, Redis: rc})
	req := httptest.NewRequest("GET", "/api/v1/health", nil)
	req.Header.Set("X-Request-Id", "client-supplied-123")
	res, err := srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Header.Get("X-Request-Id"); got != "client-supplied-123" {
		t.Fatalf("X-Request-Id = %q", got)
	}
	req = httptest.NewRequest("GET", "/api/v1/health", nil)
	req.Header.Set("X-Request-Id", "bad id with spaces\x01")
	res, _ = srv.App().Test(req, -1)
	if got := res.Header.Get("X-Request-Id"); !strings.HasPrefix(got, "req_") {
		t.Fatalf("unsafe request id not replaced: %q", got)
	}
}

func TestHealth(t *testing.T) {
	st := storetest.NewCorpusStore(t)
	_, rc := storetest.NewRedis(t)
	srv := web.NewTestServer(t, web.Config{Version: "test"}, web.Deps{Store: st, Redis: rc})
	res, err := srv.App().Test(httptest.NewRequest("GET", "/api/v1/health", nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	var h api.HealthResponse
	json.NewDecoder(res.Body).Decode(&h)
	if res.StatusCode != 200 || h.Status != "ok" || h.Corpus == nil || h.Corpus.Verses != 31102 || h.Corpus.Translation != "KJV" {
		t.Fatalf("health = %d %+v", res.StatusCode, h)
	}
	for _, dep := range []string{"postgres", "redis", "corpus"} {
		if h.Checks[dep].Status != "ok" {
			t.Fatalf("check %s = %+v", dep, h.Checks[dep])
		}
	}

	// Redis down: same shape, 503, naming what is down.
	rc.Close()
	res, _ = srv.App().Test(httptest.NewRequest("GET", "/api/v1/health", nil), -1)
	h = api.HealthResponse{}
	json.NewDecoder(res.Body).Decode(&h)
	if res.StatusCode != 503 || h.Status != "degraded" || h.Checks["redis"].Status != "down" || h.Checks["postgres"].Status != "ok" {
		t.Fatalf("health with redis down = %d %+v", res.StatusCode, h)
	}
}
