package store_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
)

func signUp(t *testing.T, st *store.Store, email, hash string, now time.Time) store.SignUp {
	t.Helper()
	su, err := st.SignUp(context.Background(), email, hash, now, 24*time.Hour)
	if err != nil {
		t.Fatalf("SignUp(%s): %v", email, err)
	}
	return su
}

func loginHash(t *testing.T, st *store.Store, email string) string {
	t.Helper()
	_, hash, err := st.AccountForLogin(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	return hash
}

// TestSignUpOutcomes: a sign-up creates an unverified account, adds a link
// to an unverified one, and leaves a verified one alone.
func TestSignUpOutcomes(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	t0 := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

	first := signUp(t, st, " New@Example.com", "$argon2id$first", t0)
	if first.Outcome != store.SignUpCreated || first.Account.Verified || first.Account.Email != "new@example.com" ||
		first.Account.Plan.Name != store.PlanFree || len(first.Token) != 43 {
		t.Fatalf("first sign-up = %+v", first)
	}
	// Only the token's SHA-256 is stored, with the sign-up's password.
	var hash []byte
	var pw string
	var expires time.Time
	if err := st.Pool().QueryRow(ctx, `SELECT token_hash, password_hash, expires_at FROM email_verifications`).Scan(&hash, &pw, &expires); err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256([]byte(first.Token)); !bytes.Equal(hash, sum[:]) || pw != "$argon2id$first" || !expires.Equal(t0.Add(24*time.Hour)) {
		t.Fatalf("stored link: hash ok %v, password %q, expires %v", bytes.Equal(hash, sum[:]), pw, expires)
	}

	again := signUp(t, st, "new@example.com", "$argon2id$second", t0.Add(time.Minute))
	if again.Outcome != store.SignUpPending || again.Account.ID != first.Account.ID || again.Token == "" || again.Token == first.Token {
		t.Fatalf("second sign-up = %+v", again)
	}
	if h := loginHash(t, st, "new@example.com"); h != "$argon2id$second" {
		t.Fatalf("an unverified account's password after a second sign-up = %q, want the latest", h)
	}

	verified, err := st.CreateAccount(ctx, "old@example.com", "$argon2id$old", "", false)
	if err != nil || !verified.Verified {
		t.Fatalf("CreateAccount = %+v, %v; want a verified account", verified, err)
	}
	taken := signUp(t, st, "OLD@example.com", "$argon2id$intruder", t0)
	if taken.Outcome != store.SignUpExisting || taken.Token != "" || taken.Account.ID != verified.ID || !taken.Account.Verified {
		t.Fatalf("sign-up of a verified address = %+v", taken)
	}
	if h := loginHash(t, st, "old@example.com"); h != "$argon2id$old" {
		t.Fatalf("a verified account's password changed to %q", h)
	}
	if err := st.DisableAccount(ctx, "new@example.com"); err != nil {
		t.Fatal(err)
	}
	if su := signUp(t, st, "new@example.com", "$argon2id$third", t0); su.Outcome != store.SignUpExisting || su.Token != "" {
		t.Fatalf("sign-up of a disabled address = %+v", su)
	}

	_, err = st.SignUp(ctx, "a@b", "$argon2id$x", t0, time.Hour)
	wantCode(t, err, selah.EINVALID)
}

// TestSignUpConcurrent: parallel sign-ups of one new address make one
// account; the others add links to it.
func TestSignUpConcurrent(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	const n = 8
	var wg sync.WaitGroup
	outcomes := make([]store.SignUp, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			outcomes[i], errs[i] = st.SignUp(context.Background(), "race@example.com", "$argon2id$x", time.Now(), time.Hour)
		})
	}
	wg.Wait()
	created := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("sign-up %d: %v", i, errs[i])
		}
		if outcomes[i].Outcome == store.SignUpCreated {
			created++
		} else if outcomes[i].Outcome != store.SignUpPending {
			t.Fatalf("sign-up %d: %+v", i, outcomes[i])
		}
		if outcomes[i].Account.ID != outcomes[0].Account.ID {
			t.Fatal("parallel sign-ups made two accounts")
		}
	}
	if created != 1 {
		t.Fatalf("%d of %d parallel sign-ups created the account, want 1", created, n)
	}
}

// TestVerifyEmail: a link verifies its account once, with the password of
// its own sign-up, retires the account's other links, and stops working
// when it expires.
func TestVerifyEmail(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	t0 := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

	older := signUp(t, st, "v@example.com", "$argon2id$older", t0)
	newer := signUp(t, st, "v@example.com", "$argon2id$newer", t0)
	if err := st.VerificationPending(ctx, older.Token, t0); err != nil {
		t.Fatalf("VerificationPending = %v", err)
	}
	a, err := st.VerifyEmail(ctx, older.Token, t0.Add(time.Hour))
	if err != nil || !a.Verified || a.ID != older.Account.ID {
		t.Fatalf("VerifyEmail = %+v, %v", a, err)
	}
	if h := loginHash(t, st, "v@example.com"); h != "$argon2id$older" {
		t.Fatalf("password after following the older link = %q, want that sign-up's", h)
	}
	for name, token := range map[string]string{"used": older.Token, "other": newer.Token, "unknown": "x"} {
		if _, err := st.VerifyEmail(ctx, token, t0); !errors.Is(err, selah.ErrNotFound) {
			t.Errorf("VerifyEmail(%s link) = %v, want selah.ErrNotFound", name, err)
		}
		if err := st.VerificationPending(ctx, token, t0); !errors.Is(err, selah.ErrNotFound) {
			t.Errorf("VerificationPending(%s link) = %v, want selah.ErrNotFound", name, err)
		}
	}

	exp := signUp(t, st, "late@example.com", "$argon2id$x", t0)
	end := t0.Add(24 * time.Hour)
	if err := st.VerificationPending(ctx, exp.Token, end); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("VerificationPending at expiry = %v", err)
	}
	if _, err := st.VerifyEmail(ctx, exp.Token, end); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("VerifyEmail at expiry = %v", err)
	}
	if a, _ := st.AccountByEmail(ctx, "late@example.com"); a.Verified {
		t.Fatal("an expired link verified the account")
	}
}

// TestVerifyEmailOnce: of parallel uses of one link, exactly one works.
func TestVerifyEmailOnce(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	su := signUp(t, st, "once@example.com", "$argon2id$x", time.Now())
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { _, errs[i] = st.VerifyEmail(context.Background(), su.Token, time.Now()) })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, selah.ErrNotFound):
			t.Fatal(err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d of %d parallel uses of one link worked, want 1", ok, n)
	}
}

func TestMarkVerified(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	ctx := context.Background()
	su := signUp(t, st, "cli@example.com", "$argon2id$x", time.Now())
	already, err := st.MarkVerified(ctx, "CLI@example.com", time.Now())
	if err != nil || already {
		t.Fatalf("MarkVerified = %v, %v", already, err)
	}
	if a, _ := st.AccountByEmail(ctx, "cli@example.com"); !a.Verified {
		t.Fatal("not verified")
	}
	if err := st.VerificationPending(ctx, su.Token, time.Now()); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("the account's link still works: %v", err)
	}
	if already, err := st.MarkVerified(ctx, "cli@example.com", time.Now()); err != nil || !already {
		t.Fatalf("MarkVerified again = %v, %v", already, err)
	}
	if _, err := st.MarkVerified(ctx, "nobody@example.com", time.Now()); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("MarkVerified(unknown) = %v", err)
	}
}
