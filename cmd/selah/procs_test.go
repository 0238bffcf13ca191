package main

// Helpers for the fault tests: the real selah binary run as separate
// processes, and TCP proxies that stand between them and PostgreSQL or
// Redis so a test can take a dependency away and bring it back.

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

func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// tcpProxy forwards connections to target until Down, which closes the
// listener and every open connection: to the client it is as if the
// server went away. Up listens again on the same address.
type tcpProxy struct {
	t      testing.TB
	target string
	addr   string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]bool
}

func newProxy(t testing.TB, target string) *tcpProxy {
	t.Helper()
	p := &tcpProxy{t: t, target: target, conns: map[net.Conn]bool{}}
	p.addr = freeAddr(t)
	p.Up()
	t.Cleanup(p.Down)
	return p
}

func (p *tcpProxy) Up() {
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ {
		if ln, err = net.Listen("tcp", p.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		p.t.Fatalf("proxy: listen again on %s: %v", p.addr, err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go p.accept(ln)
}

func (p *tcpProxy) accept(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		if p.ln != ln {
			p.mu.Unlock()
			c.Close()
			up.Close()
			return
		}
		p.conns[c], p.conns[up] = true, true
		p.mu.Unlock()
		go p.pipe(c, up)
		go p.pipe(up, c)
	}
}

func (p *tcpProxy) pipe(dst, src net.Conn) {
	io.Copy(dst, src)
	dst.Close()
	src.Close()
	p.mu.Lock()
	delete(p.conns, dst)
	delete(p.conns, src)
	p.mu.Unlock()
}

func (p *tcpProxy) Down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
	p.conns = map[net.Conn]bool{}
}

// viaProxy rewrites a database or Redis URL to go through the proxy.
func viaProxy(rawURL string, p *tcpProxy) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		panic(err)
	}
	u.Host = p.addr
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
