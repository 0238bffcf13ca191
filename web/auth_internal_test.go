package web

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

type fakeTime struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeTime) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeTime) add(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = f.t.Add(d)
}

func TestKeyCacheTTL(t *testing.T) {
	t.Parallel()
	clock := &fakeTime{t: time.Unix(1_700_000_000, 0)}
	kc := newKeyCache(keyCacheTTL, 10)
	kc.now = clock.now
	known, unknown := [32]byte{1}, [32]byte{2}
	kp := &store.KeyPrincipal{Key: store.APIKey{ID: "key_a"}}
	kc.put(known, kp)
	kc.put(unknown, nil)

	for _, tc := range []struct {
		name    string
		advance time.Duration
		hit     bool
	}{
		{"fresh", 0, true},
		{"just inside the TTL", keyCacheTTL - time.Millisecond, true},
		{"at the TTL", time.Millisecond, false},
	} {
		clock.add(tc.advance)
		got, ok := kc.get(known)
		if ok != tc.hit || (ok && got != kp) {
			t.Fatalf("%s: known = %v, %v", tc.name, got, ok)
		}
		got, ok = kc.get(unknown)
		if ok != tc.hit || got != nil {
			t.Fatalf("%s: unknown = %v, %v", tc.name, got, ok)
		}
	}
	if kc.len() != 0 {
		t.Fatalf("expired entries kept: %d", kc.len())
	}
	if keyCacheTTL > 500*time.Millisecond {
		t.Fatalf("keyCacheTTL = %v; revokes must propagate within a second", keyCacheTTL)
	}
}

func TestKeyCacheBounded(t *testing.T) {
	t.Parallel()
	clock := &fakeTime{t: time.Unix(1_700_000_000, 0)}
	kc := newKeyCache(keyCacheTTL, 2)
	kc.now = clock.now
	kc.put([32]byte{1}, nil)
	kc.put([32]byte{2}, nil)
	kc.put([32]byte{3}, nil) // full of live entries: not cached
	if _, ok := kc.get([32]byte{3}); ok || kc.len() != 2 {
		t.Fatalf("cache grew past its bound: %d", kc.len())
	}
	kc.put([32]byte{1}, &store.KeyPrincipal{}) // replacing is always allowed
	if p, ok := kc.get([32]byte{1}); !ok || p == nil {
		t.Fatal("replacement not stored")
	}
	clock.add(keyCacheTTL)
	kc.put([32]byte{3}, nil) // expired entries make room
	if _, ok := kc.get([32]byte{3}); !ok || kc.len() != 1 {
		t.Fatalf("expired entries not swept: %d", kc.len())
	}
}

func TestKeyToucherThrottles(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	a, err := st.CreateAccount(ctx, "touch@example.com", "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	_, k, err := st.CreateKey(ctx, a.ID, "t", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	tc := newKeyToucher(st, slog.Default())
	now := time.Now()

	// All writers busy: the touch is dropped and not remembered.
	for range maxTouches {
		tc.sem <- struct{}{}
	}
	tc.touch(k.ID, nil, now)
	if len(tc.last) != 0 {
		t.Fatal("dropped touch remembered")
	}
	for range maxTouches {
		<-tc.sem
	}

	// Recently used (by the database's record): nothing to do.
	recent := now.Add(-30 * time.Second)
	tc.touch(k.ID, &recent, now)
	if len(tc.last) != 0 {
		t.Fatal("touched a key used 30s ago")
	}

	tc.touch(k.ID, nil, now)
	tc.touch(k.ID, nil, now.Add(30*time.Second)) // within a minute: skipped
	tc.mu.Lock()
	at := tc.last[k.ID]
	tc.mu.Unlock()
	if !at.Equal(now) {
		t.Fatalf("last touch = %v, want %v", at, now)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, err := st.KeyByID(ctx, k.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.LastUsedAt != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("last_used_at not written")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestPrincipalOf checks what the middleware hands to handlers.
func TestPrincipalOf(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	_, rc := storetest.NewRedis(t)
	ctx := context.Background()
	s := NewTestServer(t, Config{}, Deps{Store: st, Redis: rc})
	a, err := st.CreateAccount(ctx, "p@example.com", "", "builder", false)
	if err != nil {
		t.Fatal(err)
	}
	key, k, err := st.CreateKey(ctx, a.ID, "p", true, nil)
	if err != nil {
		t.Fatal(err)
	}

	app := fiber.New(fiber.Config{ErrorHandler: s.errorHandler})
	app.Use(s.requestID)
	var got, open *Principal
	app.Get("/authed", s.authenticate, func(c *fiber.Ctx) error { got = PrincipalOf(c); return nil })
	app.Get("/open", func(c *fiber.Ctx) error { open = PrincipalOf(c); return nil })

	req := httptest.NewRequest("GET", "/authed", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	if res, err := app.Test(req, -1); err != nil || res.StatusCode != 200 {
		t.Fatalf("authed: %v %v", res, err)
	}
	want := Principal{AccountID: a.ID, KeyID: k.ID, Test: true,
		Plan: store.Plan{Name: "builder", RequestsPerMinute: 300, ConcurrentRequests: 10, AsksPerDay: 1000, AsksPerMonth: 20000, MaxActiveKeys: 25}}
	if got == nil || *got != want {
		t.Fatalf("PrincipalOf = %+v, want %+v", got, want)
	}
	if _, err := app.Test(httptest.NewRequest("GET", "/open", nil), -1); err != nil {
		t.Fatal(err)
	}
	if open != nil {
		t.Fatalf("PrincipalOf without auth = %+v", open)
	}
}
