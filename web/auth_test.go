package web_test

import (
	"context"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/selahdev/selah/apikey"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
	"github.com/selahdev/selah/web"
	"github.com/selahdev/selah/web/webtest"
)

// authedPath is a route behind the authed chain. The test database has no
// corpus, so a request that passes auth gets 404 passage_not_found (or 200
// with a corpus); only 401 and 403 are auth outcomes.
const authedPath = "/api/v1/scripture?ref=John+3:16"

// testClock is a controllable clock for web.Deps.Now.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func get(t *testing.T, srv *web.Server, authorization string) *http.Response {
	t.Helper()
	req := httptest.NewRequest("GET", authedPath, nil)
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	res, err := srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// mustAccount creates an account on the internal plan, whose rate limits
// these tests never reach (they are about auth, not limits).
func mustAccount(t *testing.T, st *store.Store, email string) store.Account {
	t.Helper()
	a, err := st.CreateAccount(context.Background(), email, "", store.PlanInternal, false)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func mustKey(t *testing.T, st *store.Store, accountID int64, expires *time.Time) (string, store.APIKey) {
	t.Helper()
	key, k, err := st.CreateKey(context.Background(), accountID, "test", false, expires)
	if err != nil {
		t.Fatal(err)
	}
	return key, k
}

// typo changes one character of the secret, keeping the format valid.
func typo(key string) string {
	i := len(apikey.LivePrefix) + 10
	c := byte('a')
	if key[i] == 'a' {
		c = 'b'
	}
	return key[:i] + string(c) + key[i+1:]
}

func TestAuthenticate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := storetest.NewStore(t)
	_, rc := storetest.NewRedis(t)
	logs := &webtest.LogBuffer{}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := web.NewTestServer(t, web.Config{}, web.Deps{Store: st, Redis: rc, Logger: log})

	a := mustAccount(t, st, "auth@example.com")
	valid, _ := mustKey(t, st, a.ID, nil)
	testKey, _, err := st.CreateKey(ctx, a.ID, "t", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	revoked, rk := mustKey(t, st, a.ID, nil)
	if err := st.RevokeKey(ctx, rk.ID); err != nil {
		t.Fatal(err)
	}
	disabled, dk := mustKey(t, st, a.ID, nil)
	if err := st.DisableKey(ctx, dk.ID); err != nil {
		t.Fatal(err)
	}
	expired, ek := mustKey(t, st, a.ID, nil)
	if _, err := st.Pool().Exec(ctx, `UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE public_id = $1`, ek.ID); err != nil {
		t.Fatal(err)
	}
	b := mustAccount(t, st, "gone@example.com")
	ofDisabledAccount, _ := mustKey(t, st, b.ID, nil)
	if err := st.DisableAccount(ctx, "gone@example.com"); err != nil {
		t.Fatal(err)
	}
	unknown, _ := apikey.Generate(false)

	cases := []struct {
		name   string
		header string
		status int    // 0: anything but 401 and 403
		code   string // error code for 401/403
	}{
		{"valid live key", "Bearer " + valid, 0, ""},
		{"valid test key", "Bearer " + testKey, 0, ""},
		{"scheme is case-insensitive", "bearer " + valid, 0, ""},
		{"extra spaces", "  BEARER   " + valid + "  ", 0, ""},
		{"missing", "", 401, "missing_api_key"},
		{"bearer without key", "Bearer ", 401, "missing_api_key"},
		{"basic scheme", "Basic dXNlcjpwYXNz", 401, "invalid_api_key"},
		{"key without scheme", valid, 401, "invalid_api_key"},
		{"garbage", "Bearer not-a-key", 401, "invalid_api_key"},
		{"truncated", "Bearer " + valid[:len(valid)-1], 401, "invalid_api_key"},
		{"typo (bad checksum)", "Bearer " + typo(valid), 401, "invalid_api_key"},
		{"unknown key", "Bearer " + unknown, 401, "invalid_api_key"},
		{"revoked", "Bearer " + revoked, 403, "key_revoked"},
		{"disabled", "Bearer " + disabled, 403, "key_disabled"},
		{"expired", "Bearer " + expired, 403, "key_expired"},
		{"account disabled", "Bearer " + ofDisabledAccount, 403, "account_disabled"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for range 2 { // the second request is served from the cache
				res := get(t, srv, tc.header)
				if tc.status == 0 {
					if res.StatusCode == 401 || res.StatusCode == 403 {
						t.Fatalf("status = %d, want auth to pass", res.StatusCode)
					}
					continue
				}
				if res.StatusCode != tc.status {
					t.Fatalf("status = %d, want %d", res.StatusCode, tc.status)
				}
				if e := decodeError(t, res); e.Code != tc.code {
					t.Fatalf("code = %q, want %q", e.Code, tc.code)
				}
				wwwAuth := res.Header.Get("WWW-Authenticate")
				if tc.status == 401 && !strings.HasPrefix(wwwAuth, "Bearer") {
					t.Fatalf("WWW-Authenticate = %q", wwwAuth)
				}
				if tc.status == 403 && wwwAuth != "" {
					t.Fatalf("WWW-Authenticate on 403: %q", wwwAuth)
				}
			}
		})
	}

	t.Cleanup(func() {
		out := logs.String()
		for _, secret := range []string{valid, valid[len(apikey.LivePrefix):], hex.EncodeToString(apikey.Hash(valid)),
			revoked, "auth@example.com", "gone@example.com"} {
			if strings.Contains(out, secret) {
				t.Errorf("logs contain key material or an email")
			}
		}
	})
}

// TestAuthChecksBeforeDatabase: a server whose database is unreachable still
// answers 401 to malformed keys and bad checksums; only a well-formed key
// reaches the database (and gets 503 service_unavailable here).
func TestAuthChecksBeforeDatabase(t *testing.T) {
	t.Parallel()
	st, err := store.Open(context.Background(), "postgres://root@127.0.0.1:1/nowhere?sslmode=disable&connect_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, rc := storetest.NewRedis(t)
	srv := web.NewTestServer(t, web.Config{}, web.Deps{Store: st, Redis: rc})
	key, _ := apikey.Generate(false)
	for _, tc := range []struct {
		name   string
		header string
		status int
	}{
		{"malformed", "Bearer svc_live_short", 401},
		{"bad checksum", "Bearer " + typo(key), 401},
		{"well-formed", "Bearer " + key, 503},
	} {
		if res := get(t, srv, tc.header); res.StatusCode != tc.status {
			t.Errorf("%s: status = %d, want %d", tc.name, res.StatusCode, tc.status)
		}
	}
}

// TestAuthExpiryUsesClock: expiry is judged with the server's clock on every
// request, cached lookup or not.
func TestAuthExpiryUsesClock(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	_, rc := storetest.NewRedis(t)
	clock := &testClock{t: time.Now()}
	srv := web.NewTestServer(t, web.Config{}, web.Deps{Store: st, Redis: rc, Now: clock.Now})
	a := mustAccount(t, st, "clock@example.com")
	exp := time.Now().Add(time.Hour)
	key, _ := mustKey(t, st, a.ID, &exp)

	if res := get(t, srv, "Bearer "+key); res.StatusCode == 401 || res.StatusCode == 403 {
		t.Fatalf("before expiry: status %d", res.StatusCode)
	}
	clock.Add(time.Hour + time.Minute)
	res := get(t, srv, "Bearer "+key)
	if res.StatusCode != 403 || decodeError(t, res).Code != "key_expired" {
		t.Fatalf("at expiry: status %d", res.StatusCode)
	}
}

// TestAuthRotationGrace: after rotating with a grace period both keys work;
// once the grace has passed (by the server's clock) the old one is refused.
func TestAuthRotationGrace(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	_, rc := storetest.NewRedis(t)
	clock := &testClock{t: time.Now()}
	srv := web.NewTestServer(t, web.Config{}, web.Deps{Store: st, Redis: rc, Now: clock.Now})
	a := mustAccount(t, st, "rotate@example.com")
	oldKey, old := mustKey(t, st, a.ID, nil)
	newKey, _, err := st.RotateKey(context.Background(), old.ID, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{oldKey, newKey} {
		if res := get(t, srv, "Bearer "+k); res.StatusCode == 401 || res.StatusCode == 403 {
			t.Fatalf("during grace: status %d", res.StatusCode)
		}
	}
	clock.Add(11 * time.Minute)
	if res := get(t, srv, "Bearer "+oldKey); res.StatusCode != 403 || decodeError(t, res).Code != "key_expired" {
		t.Fatalf("old key after grace: status %d", res.StatusCode)
	}
	if res := get(t, srv, "Bearer "+newKey); res.StatusCode == 401 || res.StatusCode == 403 {
		t.Fatalf("new key after grace: status %d", res.StatusCode)
	}
}

// TestRevokeSeenWithinOneSecond: a revoke reaches a server that has the key
// cached within a second, with no invalidation message.
func TestRevokeSeenWithinOneSecond(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	_, rc := storetest.NewRedis(t)
	srv := web.NewTestServer(t, web.Config{}, web.Deps{Store: st, Redis: rc})
	a := mustAccount(t, st, "revoke@example.com")
	key, k := mustKey(t, st, a.ID, nil)

	if res := get(t, srv, "Bearer "+key); res.StatusCode == 401 || res.StatusCode == 403 {
		t.Fatalf("before revoke: status %d", res.StatusCode)
	}
	if err := st.RevokeKey(context.Background(), k.ID); err != nil {
		t.Fatal(err)
	}
	revokedAt := time.Now()
	for {
		res := get(t, srv, "Bearer "+key)
		if res.StatusCode == 403 {
			if code := decodeError(t, res).Code; code != "key_revoked" {
				t.Fatalf("code = %q", code)
			}
			break
		}
		if time.Since(revokedAt) > time.Second {
			t.Fatalf("revoked key still accepted after %v", time.Since(revokedAt))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestLastUsedRecorded: a successful request records last_used_at, off the
// request path.
func TestLastUsedRecorded(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	_, rc := storetest.NewRedis(t)
	srv := web.NewTestServer(t, web.Config{}, web.Deps{Store: st, Redis: rc})
	a := mustAccount(t, st, "used@example.com")
	key, k := mustKey(t, st, a.ID, nil)
	get(t, srv, "Bearer "+key)
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, err := st.KeyByID(context.Background(), k.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.LastUsedAt != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("last_used_at not recorded")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
