package main

// Helpers for the fault tests: the real selah binary run as separate
// processes, reaching PostgreSQL and Redis through storetest's proxies so a
// test can take a dependency away and bring it back.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/selahdev/selah/store/storetest"
	"github.com/selahdev/selah/web/webtest"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// selahBinary builds cmd/selah once per test run.
func selahBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "selah-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "selah")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// proc is a running selah process.
type proc struct {
	name string
	cmd  *exec.Cmd
	out  *webtest.LogBuffer
	done chan struct{}
}

// startProc runs `selah args...` with env added to the environment. Its
// output is shown if the test fails; it is killed when the test ends.
func startProc(t *testing.T, name string, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, out: &webtest.LogBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(selahBinary(t), args...)
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			t.Logf("--- output of %s ---\n%s", p.name, p.out.String())
		}
	})
	return p
}

// kill ends the process at once (SIGKILL): a crash, no shutdown.
func (p *proc) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// handedOut are the addresses freeAddr has returned in this test binary.
// The port it finds is closed again before a process binds it, so the
// kernel may offer it to the next call: a worker's METRICS_ADDR once got
// the port a web process that had not yet started listening was given
// ("bind: address already in use").
var handedOut struct {
	sync.Mutex
	addrs map[string]bool
}

// freeAddr is a loopback address with a port free now and never handed
// out before by this test binary.
func freeAddr(t testing.TB) string {
	t.Helper()
	handedOut.Lock()
	defer handedOut.Unlock()
	for {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		if !handedOut.addrs[addr] {
			if handedOut.addrs == nil {
				handedOut.addrs = map[string]bool{}
			}
			handedOut.addrs[addr] = true
			return addr
		}
	}
}

// viaProxy rewrites a database or Redis URL to go through the proxy.
func viaProxy(rawURL string, p *storetest.Proxy) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		panic(err)
	}
	u.Host = p.Addr()
	return u.String()
}

// httpResult is one API call's outcome.
type httpResult struct {
	Status int
	Header http.Header
	Body   map[string]any
	Raw    string
}

// code is the error code of an error body, or "".
func (r httpResult) code() string {
	if e, ok := r.Body["error"].(map[string]any); ok {
		s, _ := e["code"].(string)
		return s
	}
	return ""
}

var httpClient = &http.Client{Timeout: 60 * time.Second}

// call makes one HTTP request to base+path with an optional key and JSON
// body and decodes the JSON answer.
func call(t testing.TB, method, base, path, key, body string) httpResult {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := httpClient.Do(req)
	if err != nil {
		return httpResult{Status: -1, Raw: err.Error()}
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := httpResult{Status: res.StatusCode, Header: res.Header, Raw: string(raw)}
	json.Unmarshal(raw, &r.Body)
	return r
}

// startWithin bounds how long a test waits for a started worker to be
// ready. A worker builds its retrieval indexes at start (lexical, SIF, the
// Nave's router, WordNet): seconds on an idle machine, much longer while
// the test binary's parallel stacks, each with its own worker, share two
// cores under -race.
const startWithin = 3 * time.Minute

// waitStatus polls GET base+path until it answers status.
func waitStatus(t testing.TB, base, path, key string, status int, within time.Duration) httpResult {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		r := call(t, "GET", base, path, key, "")
		if r.Status == status {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: %d %s; waited %s for %d", path, r.Status, r.Raw, within, status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
