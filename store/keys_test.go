package store_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/apikey"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

func newKey(t *testing.T, st *store.Store, accountID int64, name string) (string, store.APIKey) {
	t.Helper()
	key, k, err := st.CreateKey(context.Background(), accountID, name, false, nil)
	if err != nil {
		t.Fatalf("CreateKey: %v", err)
	}
	return key, k
}

func lookup(t *testing.T, st *store.Store, key string) store.KeyPrincipal {
	t.Helper()
	p, err := st.LookupKey(context.Background(), apikey.Hash(key))
	if err != nil {
		t.Fatalf("LookupKey: %v", err)
	}
	return p
}

func TestCreateKey(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	a := newAccount(t, st, "keys@example.com", "developer")
	exp := time.Now().Add(time.Hour).Truncate(time.Microsecond)

	cases := []struct {
		name    string
		keyName string
		test    bool
		expires *time.Time
		code    string
	}{
		{"live", "ci", false, nil, ""},
		{"test with expiry", "  staging  ", true, &exp, ""},
		{"name too long", strings.Repeat("x", store.MaxKeyNameLength+1), false, nil, selah.EINVALID},
		{"control character in name", "a\nb", false, nil, selah.EINVALID},
		{"expiry in the past", "old", false, ptr(time.Now().Add(-time.Minute)), selah.EINVALID},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			key, k, err := st.CreateKey(ctx, a.ID, tc.keyName, tc.test, tc.expires)
			if tc.code != "" {
				wantCode(t, err, tc.code)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			p, err := apikey.Parse(key)
			if err != nil || p.Test != tc.test {
				t.Fatalf("created key does not parse: %v %+v", err, p)
			}
			if !strings.HasPrefix(k.ID, "key_") || k.AccountID != a.ID || k.Name != strings.TrimSpace(tc.keyName) ||
				k.Prefix != apikey.DisplayPrefix(key) || k.Test != tc.test || k.Status != store.KeyActive ||
				k.CreatedAt.IsZero() || k.LastUsedAt != nil || k.RevokedAt != nil {
				t.Fatalf("key = %+v", k)
			}
			if (tc.expires == nil) != (k.ExpiresAt == nil) || (tc.expires != nil && !k.ExpiresAt.Equal(*tc.expires)) {
				t.Fatalf("ExpiresAt = %v, want %v", k.ExpiresAt, tc.expires)
			}

			// Only the hash is stored.
			var hash []byte
			var row string
			err = st.Pool().QueryRow(ctx, `SELECT hash, api_keys::text FROM api_keys WHERE public_id = $1`, k.ID).Scan(&hash, &row)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(hash, apikey.Hash(key)) {
				t.Fatal("stored hash is not SHA-256 of the key")
			}
			if strings.Contains(row, key[len(k.Prefix)-len("…"):]) {
				t.Fatalf("key material stored: %s", row)
			}

			got := lookup(t, st, key)
			if got.Key.ID != k.ID || got.Account.ID != a.ID || got.Account.Plan.Name != "developer" ||
				got.Account.Plan.MaxActiveKeys != 10 || got.Key.Test != tc.test {
				t.Fatalf("LookupKey = %+v", got)
			}
			byID, err := st.KeyByID(ctx, k.ID)
			if err != nil || byID.ID != k.ID || byID.Prefix != k.Prefix {
				t.Fatalf("KeyByID = %+v, %v", byID, err)
			}
		})
	}

	if _, err := st.LookupKey(ctx, apikey.Hash("svc_live_nope")); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("LookupKey(unknown) = %v", err)
	}
	if _, err := st.KeyByID(ctx, "key_nope"); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("KeyByID(unknown) = %v", err)
	}
	if _, _, err := st.CreateKey(ctx, 999999, "x", false, nil); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("CreateKey(unknown account) = %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

func TestListKeys(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	a := newAccount(t, st, "list@example.com", "")
	b := newAccount(t, st, "other@example.com", "")
	_, k1 := newKey(t, st, a.ID, "first")
	_, k2 := newKey(t, st, a.ID, "second")
	newKey(t, st, b.ID, "not mine")
	if err := st.RevokeKey(ctx, k1.ID); err != nil {
		t.Fatal(err)
	}
	ks, err := st.ListKeys(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ks) != 2 || ks[0].ID != k2.ID || ks[1].ID != k1.ID || ks[1].Status != store.KeyRevoked || ks[1].RevokedAt == nil {
		t.Fatalf("ListKeys = %+v", ks)
	}
	if ks, err := st.ListKeys(ctx, 999999); err != nil || len(ks) != 0 {
		t.Fatalf("ListKeys(unknown) = %v, %v", ks, err)
	}
}

// TestMaxActiveKeysConcurrent: the free plan allows 5 active keys; 20
// concurrent CreateKey calls admit exactly 5.
func TestMaxActiveKeysConcurrent(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	a := newAccount(t, st, "race@example.com", "free")

	const n = 20
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		ok, full int
		others   []error
	)
	start := make(chan struct{})
	for range n {
		wg.Go(func() {
			<-start
			_, _, err := st.CreateKey(ctx, a.ID, "racer", false, nil)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case selah.ErrorCode(err) == selah.ECONFLICT:
				full++
			default:
				others = append(others, err)
			}
		})
	}
	close(start)
	wg.Wait()
	if len(others) > 0 || ok != 5 || full != n-5 {
		t.Fatalf("admitted %d, refused %d, errors %v; want 5, %d, none", ok, full, others, n-5)
	}
	ks, _ := st.ListKeys(ctx, a.ID)
	if len(ks) != 5 {
		t.Fatalf("%d keys stored", len(ks))
	}

	// Revoked, disabled and expired keys do not count.
	if err := st.RevokeKey(ctx, ks[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := st.DisableKey(ctx, ks[1].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE public_id = $1`, ks[2].ID); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, _, err := st.CreateKey(ctx, a.ID, "after", false, nil); err != nil {
			t.Fatalf("create %d after freeing: %v", i, err)
		}
	}
	_, _, err := st.CreateKey(ctx, a.ID, "one too many", false, nil)
	wantCode(t, err, selah.ECONFLICT)
	if !strings.Contains(selah.ErrorMessage(err), "5") {
		t.Fatalf("message does not name the limit: %q", selah.ErrorMessage(err))
	}
}

func TestRevokeKey(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	a := newAccount(t, st, "revoke@example.com", "")
	key, k := newKey(t, st, a.ID, "r")

	if err := st.RevokeKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	first := lookup(t, st, key).Key
	if first.Status != store.KeyRevoked || first.RevokedAt == nil {
		t.Fatalf("after revoke: %+v", first)
	}
	if err := st.RevokeKey(ctx, k.ID); err != nil { // twice is fine
		t.Fatalf("second revoke: %v", err)
	}
	if again := lookup(t, st, key).Key; !again.RevokedAt.Equal(*first.RevokedAt) {
		t.Fatalf("second revoke moved revoked_at: %v -> %v", first.RevokedAt, again.RevokedAt)
	}
	if err := st.RevokeKey(ctx, "key_unknown"); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("RevokeKey(unknown) = %v", err)
	}

	// Permanent: neither the API nor raw SQL brings it back.
	wantCode(t, st.DisableKey(ctx, k.ID), selah.ECONFLICT)
	if _, err := st.Pool().Exec(ctx, `UPDATE api_keys SET status = 'active', revoked_at = NULL WHERE public_id = $1`, k.ID); err == nil {
		t.Fatal("database let a revoked key be re-enabled")
	}
	if got := lookup(t, st, key).Key.Status; got != store.KeyRevoked {
		t.Fatalf("status = %q", got)
	}
}

func TestDisableKey(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	a := newAccount(t, st, "disable@example.com", "")
	key, k := newKey(t, st, a.ID, "d")
	for range 2 {
		if err := st.DisableKey(ctx, k.ID); err != nil {
			t.Fatal(err)
		}
	}
	if got := lookup(t, st, key).Key.Status; got != store.KeyDisabled {
		t.Fatalf("status = %q", got)
	}
	if err := st.DisableKey(ctx, "key_unknown"); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("DisableKey(unknown) = %v", err)
	}
	// A disabled key can still be revoked.
	if err := st.RevokeKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	if got := lookup(t, st, key).Key.Status; got != store.KeyRevoked {
		t.Fatalf("status = %q", got)
	}
}

func TestKeyState(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 31, 23, 59, 59, 0, time.UTC)
	cases := []struct {
		name    string
		status  string
		expires *time.Time
		want    string
	}{
		{"active, no expiry", store.KeyActive, nil, store.KeyActive},
		{"active, expires later", store.KeyActive, ptr(now.Add(time.Nanosecond)), store.KeyActive},
		{"active, expires now", store.KeyActive, ptr(now), store.KeyExpired},
		{"active, expired", store.KeyActive, ptr(now.Add(-time.Hour)), store.KeyExpired},
		{"revoked and expired", store.KeyRevoked, ptr(now.Add(-time.Hour)), store.KeyRevoked},
		{"disabled", store.KeyDisabled, nil, store.KeyDisabled},
	}
	for _, tc := range cases {
		k := store.APIKey{Status: tc.status, ExpiresAt: tc.expires}
		if got := k.State(now); got != tc.want {
			t.Errorf("%s: State = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestRotateKey(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()

	t.Run("no grace revokes the old key", func(t *testing.T) {
		a := newAccount(t, st, "rot0@example.com", "")
		oldKey, old, err := st.CreateKey(ctx, a.ID, "prod", true, nil)
		if err != nil {
			t.Fatal(err)
		}
		newKeyStr, nk, err := st.RotateKey(ctx, old.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		if newKeyStr == oldKey || nk.ID == old.ID || nk.Name != "prod" || !nk.Test || nk.ExpiresAt != nil || nk.Status != store.KeyActive {
			t.Fatalf("new key = %+v", nk)
		}
		if p, err := apikey.Parse(newKeyStr); err != nil || !p.Test {
			t.Fatalf("new key: %v %+v", err, p)
		}
		o := lookup(t, st, oldKey).Key
		if o.Status != store.KeyRevoked || o.ReplacedBy != nk.ID {
			t.Fatalf("old key = %+v", o)
		}
		if n := lookup(t, st, newKeyStr).Key; n.ID != nk.ID {
			t.Fatalf("new key lookup = %+v", n)
		}
	})

	t.Run("grace keeps the old key until it expires", func(t *testing.T) {
		a := newAccount(t, st, "rot1@example.com", "")
		oldKey, old := newKey(t, st, a.ID, "svc")
		before := time.Now()
		_, nk, err := st.RotateKey(ctx, old.ID, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		o := lookup(t, st, oldKey).Key
		if o.Status != store.KeyActive || o.ReplacedBy != nk.ID || o.ExpiresAt == nil {
			t.Fatalf("old key = %+v", o)
		}
		if d := o.ExpiresAt.Sub(before); d < 59*time.Minute || d > 61*time.Minute {
			t.Fatalf("old key expires in %v, want about 1h", d)
		}
		// With an injected clock: usable now, expired after the grace.
		if o.State(before) != store.KeyActive || o.State(before.Add(time.Hour+time.Minute)) != store.KeyExpired {
			t.Fatalf("states: %s, %s", o.State(before), o.State(before.Add(time.Hour+time.Minute)))
		}
		// It can still be revoked during the grace period.
		if err := st.RevokeKey(ctx, old.ID); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("grace never extends an earlier expiry", func(t *testing.T) {
		a := newAccount(t, st, "rot2@example.com", "")
		exp := time.Now().Add(10 * time.Minute)
		oldKey, old, err := st.CreateKey(ctx, a.ID, "short", false, &exp)
		if err != nil {
			t.Fatal(err)
		}
		_, nk, err := st.RotateKey(ctx, old.ID, 24*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if o := lookup(t, st, oldKey).Key; o.ExpiresAt.Sub(exp).Abs() > time.Millisecond {
			t.Fatalf("old expiry moved from %v to %v", exp, o.ExpiresAt)
		}
		// The new key gets the old key's lifetime (about 10 minutes) from now.
		if nk.ExpiresAt == nil {
			t.Fatal("new key has no expiry")
		}
		if d := time.Until(*nk.ExpiresAt); d < 9*time.Minute || d > 11*time.Minute {
			t.Fatalf("new key expires in %v, want about 10m", d)
		}
	})

	t.Run("at the key limit", func(t *testing.T) {
		a := newAccount(t, st, "rot3@example.com", "free")
		var last store.APIKey
		for range 5 {
			_, last = newKey(t, st, a.ID, "k")
		}
		_, nk, err := st.RotateKey(ctx, last.ID, time.Hour) // grace: both briefly usable
		if err != nil {
			t.Fatalf("rotate at limit: %v", err)
		}
		if _, _, err := st.RotateKey(ctx, nk.ID, 0); err != nil {
			t.Fatalf("rotate again: %v", err)
		}
		_, _, err = st.CreateKey(ctx, a.ID, "sixth", false, nil)
		wantCode(t, err, selah.ECONFLICT)
		// A key already rotated is not rotated again.
		_, _, err = st.RotateKey(ctx, nk.ID, 0)
		wantCode(t, err, selah.ECONFLICT)
	})

	t.Run("revoked key", func(t *testing.T) {
		a := newAccount(t, st, "rot5@example.com", "free")
		_, leaked := newKey(t, st, a.ID, "leaked")
		if err := st.RevokeKey(ctx, leaked.ID); err != nil {
			t.Fatal(err)
		}
		var others []store.APIKey
		for range 5 {
			_, k := newKey(t, st, a.ID, "k")
			others = append(others, k)
		}
		// The replacement of a revoked key counts like a new key...
		_, _, err := st.RotateKey(ctx, leaked.ID, 0)
		wantCode(t, err, selah.ECONFLICT)
		if err := st.RevokeKey(ctx, others[0].ID); err != nil {
			t.Fatal(err)
		}
		// ...and fits once there is room. The old key stays revoked.
		_, nk, err := st.RotateKey(ctx, leaked.ID, time.Hour)
		if err != nil || nk.Name != "leaked" {
			t.Fatalf("rotate revoked: %+v, %v", nk, err)
		}
		if k, _ := st.KeyByID(ctx, leaked.ID); k.Status != store.KeyRevoked || k.ReplacedBy != nk.ID {
			t.Fatalf("old key = %+v", k)
		}
	})

	t.Run("disabled key and unknown key", func(t *testing.T) {
		a := newAccount(t, st, "rot4@example.com", "")
		_, k := newKey(t, st, a.ID, "k")
		if err := st.DisableKey(ctx, k.ID); err != nil {
			t.Fatal(err)
		}
		_, _, err := st.RotateKey(ctx, k.ID, 0)
		wantCode(t, err, selah.ECONFLICT)
		if _, _, err := st.RotateKey(ctx, "key_unknown", 0); !errors.Is(err, selah.ErrNotFound) {
			t.Fatalf("RotateKey(unknown) = %v", err)
		}
	})
}

func TestTouchKey(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	a := newAccount(t, st, "touch@example.com", "")
	key, k := newKey(t, st, a.ID, "t")
	if err := st.TouchKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	first := lookup(t, st, key).Key.LastUsedAt
	if first == nil {
		t.Fatal("last_used_at not set")
	}
	// A second touch within a minute does not write.
	if err := st.TouchKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	if again := lookup(t, st, key).Key.LastUsedAt; !again.Equal(*first) {
		t.Fatalf("last_used_at rewritten within a minute: %v -> %v", first, again)
	}
	if err := st.TouchKey(ctx, "key_unknown"); err != nil {
		t.Fatalf("TouchKey(unknown) = %v", err)
	}
}
