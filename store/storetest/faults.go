package storetest

import (
	"context"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Proxy forwards TCP connections to a PostgreSQL or Redis server until
// Down, which closes the listener and every open connection: to a client it
// is as if the server went away. Up listens again on the same address. It
// lets a test take a dependency away from one client (a process, an
// engine) while others keep it.
type Proxy struct {
	t      testing.TB
	target string
	addr   string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]bool
}

// NewProxy starts a proxy to target (host:port) on a free loopback port.
// It is taken down when the test ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{t: t, target: target, addr: ln.Addr().String(), conns: map[net.Conn]bool{}}
	ln.Close()
	p.Up()
	t.Cleanup(p.Down)
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.addr }

// Up (re)opens the proxy.
func (p *Proxy) Up() {
	var ln net.Listener
	var err error
	for range 50 {
		if ln, err = net.Listen("tcp", p.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		p.t.Fatalf("storetest: proxy: listen again on %s: %v", p.addr, err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go p.accept(ln)
}

func (p *Proxy) accept(ln net.Listener) {
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

func (p *Proxy) pipe(dst, src net.Conn) {
	io.Copy(dst, src)
	dst.Close()
	src.Close()
	p.mu.Lock()
	delete(p.conns, dst)
	delete(p.conns, src)
	p.mu.Unlock()
}

// Down closes the listener and every connection through the proxy.
func (p *Proxy) Down() {
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

// KillSubscribers closes, from the Redis server's side, every connection
// to rc's database that is subscribed to a channel (CLIENT KILL), as a
// network fault or a Redis failover would, and returns how many it closed.
// Other connections, and other databases' subscribers, are left alone.
func KillSubscribers(t testing.TB, rc *redis.Client) int {
	t.Helper()
	ctx := context.Background()
	list, err := rc.ClientList(ctx).Result()
	if err != nil {
		t.Fatalf("storetest: client list: %v", err)
	}
	db := strconv.Itoa(rc.Options().DB)
	n := 0
	for _, line := range strings.Split(list, "\n") {
		f := map[string]string{}
		for _, kv := range strings.Fields(line) {
			k, v, _ := strings.Cut(kv, "=")
			f[k] = v
		}
		if f["db"] != db || f["sub"] == "" || f["sub"] == "0" {
			continue
		}
		if err := rc.ClientKillByFilter(ctx, "ID", f["id"]).Err(); err != nil {
			t.Fatalf("storetest: client kill %s: %v", f["id"], err)
		}
		n++
	}
	return n
}
