package store_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

func TestSessionLifecycle(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	a := newAccount(t, st, "session@example.com", "")
	t0 := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

	token, sess, err := st.CreateSession(ctx, a.ID, t0, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if len(token) != 43 || sess.AccountID != a.ID || len(sess.CSRFToken) != 43 || sess.CSRFToken == token ||
		!sess.CreatedAt.Equal(t0) || !sess.ExpiresAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("CreateSession = %q, %+v", token, sess)
	}

	// Only the SHA-256 of the token is stored.
	var id []byte
	if err := st.Pool().QueryRow(ctx, `SELECT id FROM sessions`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256([]byte(token)); !bytes.Equal(id, sum[:]) {
		t.Fatalf("stored id is not the token's SHA-256")
	}

	lookups := []struct {
		name  string
		token string
		at    time.Time
		found bool
	}{
		{"at creation", token, t0, true},
		{"just before expiry", token, t0.Add(time.Hour - time.Microsecond), true},
		{"at expiry", token, t0.Add(time.Hour), false},
		{"other token", strings.Repeat("A", 43), t0, false},
		{"malformed token", "abc", t0, false},
		{"empty token", "", t0, false},
	}
	for _, tc := range lookups {
		t.Run(tc.name, func(t *testing.T) {
			got, acct, err := st.SessionByToken(ctx, tc.token, tc.at)
			if !tc.found {
				if !errors.Is(err, selah.ErrNotFound) {
					t.Fatalf("SessionByToken = %+v, %v; want selah.ErrNotFound", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !sameSession(got, sess) || !sameAccount(acct, a) {
				t.Fatalf("SessionByToken = %+v, %+v; want %+v, %+v", got, acct, sess, a)
			}
		})
	}

	// Extending moves the expiry later, never earlier.
	if err := st.ExtendSession(ctx, token, t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := st.ExtendSession(ctx, token, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got, _, err := st.SessionByToken(ctx, token, t0.Add(90*time.Minute)); err != nil || !got.ExpiresAt.Equal(t0.Add(2*time.Hour)) {
		t.Fatalf("after extending: %+v, %v", got, err)
	}

	if err := st.DeleteSession(ctx, token); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.SessionByToken(ctx, token, t0); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("after delete: %v, want selah.ErrNotFound", err)
	}
	if err := st.DeleteSession(ctx, token); err != nil {
		t.Fatalf("deleting twice: %v", err)
	}
}

func sameSession(a, b store.Session) bool {
	return a.AccountID == b.AccountID && a.CSRFToken == b.CSRFToken &&
		a.CreatedAt.Equal(b.CreatedAt) && a.ExpiresAt.Equal(b.ExpiresAt)
}

func TestCreateSessionPurgesExpired(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	a := newAccount(t, st, "purge-a@example.com", "")
	b := newAccount(t, st, "purge-b@example.com", "")
	t0 := time.Date(2030, 1, 2, 0, 0, 0, 0, time.UTC)

	mustSession := func(accountID int64, at time.Time, ttl time.Duration) string {
		t.Helper()
		token, _, err := st.CreateSession(ctx, accountID, at, ttl)
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
	expiredA := mustSession(a.ID, t0, time.Minute)
	liveA := mustSession(a.ID, t0, time.Hour)
	expiredB := mustSession(b.ID, t0, time.Minute)

	mustSession(a.ID, t0.Add(10*time.Minute), time.Hour)

	count := func(token string) int {
		t.Helper()
		var n int
		sum := sha256.Sum256([]byte(token))
		if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM sessions WHERE id = $1`, sum[:]).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if count(expiredA) != 0 {
		t.Errorf("the account's expired session was not purged")
	}
	if count(liveA) != 1 {
		t.Errorf("the account's live session was purged")
	}
	if count(expiredB) != 1 {
		t.Errorf("another account's session was purged")
	}
}

func TestCreateSessionUnknownAccount(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	if _, _, err := st.CreateSession(context.Background(), 424242, time.Now(), time.Hour); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("CreateSession for an unknown account: %v, want selah.ErrNotFound", err)
	}
}
