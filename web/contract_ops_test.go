package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/store"
)

// TestContractEveryOperation calls every operation of openapi.yaml with
// its success and its typical failures, so that the contract hook (see
// contract_test.go) validates each documented response shape at least
// once, whatever other tests happen to cover. It asserts only the status:
// the hook judges the rest.
func TestContractEveryOperation(t *testing.T) {
	env := newQueueEnv(t, Config{})
	env.startWorkerFor(t, jobs.QueueSearch, env.searcher(t))
	env.startWorkerFor(t, jobs.QueueAsk, env.asker(t, nil))
	waitWorkers(t, env.srv)
	live := env.keyOf(t, store.PlanInternal, false)
	test := env.keyOf(t, store.PlanInternal, true)

	send := func(t *testing.T, method, path, key, body string) (*http.Response, []byte) {
		t.Helper()
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Accept", "application/json")
		res, err := env.srv.App().Test(req, -1)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	before := contract.Checked()
	var answerURL string
	for _, c := range []struct {
		name, method, path, key, body string
		status                        int
	}{
		{"health", "GET", "/api/v1/health", "", "", 200},
		{"openapi json", "GET", "/api/v1/openapi.json", "", "", 200},
		{"openapi yaml", "GET", "/api/v1/openapi.yaml", "", "", 200},
		{"verse", "GET", "/api/v1/scripture?ref=John+3:16", live, "", 200},
		{"psalm with title", "GET", "/api/v1/scripture?ref=Ps+23", live, "", 200},
		{"first chapter", "GET", "/api/v1/scripture?ref=Genesis+1:1-2:3", live, "", 200},
		{"no ref", "GET", "/api/v1/scripture", live, "", 400},
		{"unknown book", "GET", "/api/v1/scripture?ref=Nowhere+1:1", live, "", 400},
		{"passage too large", "GET", "/api/v1/scripture?ref=Genesis+1-10", live, "", 400},
		{"no such verse", "GET", "/api/v1/scripture?ref=John+3:37", live, "", 404},
		{"no key", "GET", "/api/v1/scripture?ref=John+3:16", "", "", 401},
		{"malformed key", "GET", "/api/v1/topics", "svc_live_nope", "", 401},
		{"topics", "GET", "/api/v1/topics", test, "", 200},
		{"topic", "GET", "/api/v1/topics/anxiety", test, "", 200},
		{"no such topic", "GET", "/api/v1/topics/no-such-hub", test, "", 404},
		{"word", "GET", "/api/v1/words/G26?limit=2", test, "", 200},
		{"hebrew word", "GET", "/api/v1/words/h07965", test, "", 200},
		{"malformed word number", "GET", "/api/v1/words/x26", test, "", 400},
		{"word bad limit", "GET", "/api/v1/words/G26?limit=500", test, "", 400},
		{"no such word", "GET", "/api/v1/words/G9999", test, "", 404},
		{"search", "POST", "/api/v1/search", live, `{"query":"do not worry about tomorrow","limit":3}`, 200},
		{"search a reference", "POST", "/api/v1/search", live, `{"query":"John 3:16-18"}`, 200},
		{"search bad limit", "POST", "/api/v1/search", live, `{"query":"grace","limit":0}`, 400},
		{"ask live key", "POST", "/api/v1/ask", live, `{"question":"What does the Bible say about worry?","maxReferences":3}`, 200},
		{"ask nothing relevant", "POST", "/api/v1/ask", test, `{"question":"zxqv wplk"}`, 200},
		{"ask unknown field", "POST", "/api/v1/ask", test, `{"question":"grace","max":3}`, 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, body := send(t, c.method, c.path, c.key, c.body)
			if res.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, c.status, body)
			}
			if c.name == "ask live key" {
				var a struct{ CanonicalURL string }
				json.Unmarshal(body, &a)
				answerURL = a.CanonicalURL
			}
		})
	}

	// The answer's public page, as JSON and as HTML, and a missing one.
	i := strings.Index(answerURL, "/answers/")
	if i < 0 {
		t.Fatalf("canonicalUrl %q", answerURL)
	}
	if res, body := send(t, "GET", answerURL[i:], "", ""); res.StatusCode != 200 || !bytes.HasPrefix(body, []byte("{")) {
		t.Errorf("answer JSON: %d %.80s", res.StatusCode, body)
	}
	req := httptest.NewRequest("GET", answerURL[i:], nil)
	req.Header.Set("Accept", "text/html")
	if res, err := env.srv.App().Test(req, -1); err != nil || res.StatusCode != 200 {
		t.Errorf("answer page: %v %v", res, err)
	}
	if res, _ := send(t, "GET", "/answers/ans_AAAAAAAAAAAAAAAAAAAAAAAAAA", "", ""); res.StatusCode != 404 {
		t.Errorf("missing answer: %d", res.StatusCode)
	}

	// No job queue at all: search and ask are 503 workers_unavailable.
	bare := NewTestServer(t, Config{}, Deps{Store: env.st, Redis: env.rc, Logger: env.log})
	for path, body := range map[string]string{"/api/v1/search": `{"query":"grace"}`, "/api/v1/ask": `{"question":"grace"}`} {
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+live)
		req.Header.Set("Content-Type", "application/json")
		if res, err := bare.App().Test(req, -1); err != nil || res.StatusCode != 503 {
			t.Errorf("%s without a queue: %v %v", path, res, err)
		}
	}

	if got := contract.Checked() - before; got < 25 {
		t.Errorf("the contract hook validated %d responses of this test, want at least 25", got)
	}
}

// TestContractServerLevelErrors: bodies over the limit are refused by the
// HTTP server before any middleware runs, so the contract hook cannot see
// them; this checks that response against the document directly.
func TestContractServerLevelErrors(t *testing.T) {
	env := newQueueEnv(t, Config{})
	key := env.key(t, store.PlanInternal)
	// Only the headers are sent: the server answers from Content-Length,
	// before reading the body, and closes the connection. A client still
	// writing a body could meet that close as a reset instead of the
	// answer, as a loaded machine's scheduling decides.
	reqHeader := http.Header{"Authorization": {"Bearer " + key}, "Content-Type": {"application/json"}}
	head := fmt.Sprintf("POST /api/v1/search HTTP/1.1\r\nHost: selah.test\r\nAuthorization: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n",
		reqHeader.Get("Authorization"), reqHeader.Get("Content-Type"), 70<<10)
	res, body := rawExchange(t, env.srv, head)
	if res.StatusCode != 413 {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	ex := exchange{method: "POST", uri: "/api/v1/search", reqHeader: reqHeader, status: res.StatusCode,
		resHeader: res.Header, resBody: body}
	if msg := contractV.validate(ex); msg != "" {
		t.Fatalf("413 does not match the document: %s\n%s %v", msg, body, res.Header)
	}
}

// TestContractReadTimeout: a client that stops halfway through its request
// gets 408 request_timeout when the read timeout passes (it was 400
// invalid_request, as if the request were malformed).
func TestContractReadTimeout(t *testing.T) {
	t.Parallel()
	env := newQueueEnv(t, Config{ReadTimeout: 500 * time.Millisecond})
	res, body := rawExchange(t, env.srv, "GET /api/v1/scripture?ref=John+3:16 HTTP/1.1\r\nHost: selah.test\r\n")
	// Like 405 and 431, the document states it once for every operation
	// (info.description) rather than in each operation's responses.
	var eb ErrorBody
	if err := json.Unmarshal(body, &eb); err != nil || res.StatusCode != http.StatusRequestTimeout ||
		eb.Error.Code != "request_timeout" || eb.Error.RequestID == "" || res.Header.Get("X-Request-Id") != eb.Error.RequestID {
		t.Fatalf("status %d: %s (%v)", res.StatusCode, body, err)
	}
}

// rawExchange serves srv on a loopback listener, writes raw to one
// connection as it is, and reads the one response: for what the HTTP
// server itself answers, before any middleware (and the contract hook)
// sees the request.
func rawExchange(t *testing.T, srv *Server, raw string) (*http.Response, []byte) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Listener(ln)
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second)) // a hung server fails the test instead of the suite
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, body
}

// waitWorkers waits until the server sees workers for both queues.
func waitWorkers(t *testing.T, srv *Server) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, err := srv.App().Test(httptest.NewRequest("GET", "/readyz", nil), -1)
		if err == nil && res.StatusCode == 200 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("workers not seen within 10s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
