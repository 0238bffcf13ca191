package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/apikey"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
	"github.com/selahdev/selah/web"
)

// cli runs the selah command in-process against one database.
type cli struct {
	t   *testing.T
	url string
	st  *store.Store
}

func newCLI(t *testing.T) *cli {
	t.Helper()
	url := storetest.NewURL(t)
	st, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	if _, err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return &cli{t: t, url: url, st: st}
}

func (c *cli) runIn(stdin string, args ...string) (string, error) {
	c.t.Helper()
	cmd := newRootCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(io.Discard)
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetArgs(append([]string{"--database-url", c.url, "--log-level", "error"}, args...))
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func (c *cli) run(args ...string) string {
	c.t.Helper()
	out, err := c.runIn("", args...)
	if err != nil {
		c.t.Fatalf("selah %s: %v", strings.Join(args, " "), err)
	}
	return out
}

func (c *cli) fails(code string, args ...string) {
	c.t.Helper()
	if _, err := c.runIn("", args...); selah.ErrorCode(err) != code {
		c.t.Fatalf("selah %s: error %v, want code %s", strings.Join(args, " "), err, code)
	}
}

// decodeNewKey checks that out is exactly one JSON object with exactly the
// documented fields, and returns it.
func decodeNewKey(t *testing.T, out string) newKeyJSON {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		t.Fatalf("output %q is not a JSON object: %v", out, err)
	}
	if dec.More() {
		t.Fatalf("output has more than one JSON value: %q", out)
	}
	var fields []string
	for f := range raw {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	if want := []string{"createdAt", "expiresAt", "id", "key", "name", "prefix", "test"}; !slices.Equal(fields, want) {
		t.Fatalf("fields = %v, want %v", fields, want)
	}
	var k newKeyJSON
	if err := json.Unmarshal([]byte(out), &k); err != nil {
		t.Fatal(err)
	}
	if _, err := apikey.Parse(k.Key); err != nil {
		t.Fatalf("key %q: %v", k.Key, err)
	}
	if !strings.HasPrefix(k.ID, "key_") || k.Prefix != apikey.DisplayPrefix(k.Key) || k.CreatedAt.IsZero() {
		t.Fatalf("new key = %+v", k)
	}
	return k
}

func TestKeysCLI(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	ctx := context.Background()

	out := c.run("accounts", "create", "--email", "Ops@Example.com", "--plan", "pro")
	if !strings.Contains(out, "ops@example.com") || !strings.Contains(out, "plan pro") {
		t.Fatalf("accounts create: %q", out)
	}
	c.fails(selah.ECONFLICT, "accounts", "create", "--email", "ops@example.com")
	c.fails(selah.EINVALID, "accounts", "create", "--email", "x@example.com", "--plan", "gold")

	// keys create --json: one object, the documented fields, a working key.
	before := time.Now()
	k := decodeNewKey(t, c.run("keys", "create", "--email", "ops@example.com", "--name", "ci", "--expires", "720h", "--json"))
	if k.Name != "ci" || k.Test || k.ExpiresAt == nil || k.ExpiresAt.Sub(before) < 719*time.Hour || k.ExpiresAt.Sub(before) > 721*time.Hour {
		t.Fatalf("keys create = %+v", k)
	}
	kp, err := c.st.LookupKey(ctx, apikey.Hash(k.Key))
	if err != nil || kp.Key.ID != k.ID || kp.Account.Plan.Name != "pro" {
		t.Fatalf("created key lookup = %+v, %v", kp, err)
	}
	tk := decodeNewKey(t, c.run("keys", "create", "--email", "ops@example.com", "--test", "--json"))
	if !tk.Test || tk.ExpiresAt != nil || !strings.HasPrefix(tk.Key, "svc_test_") {
		t.Fatalf("test key = %+v", tk)
	}
	if out := c.run("keys", "create", "--email", "ops@example.com"); !regexp.MustCompile(`(?m)^API key \(shown once.*\): svc_live_[0-9A-Za-z]{49}$`).MatchString(out) {
		t.Fatalf("keys create (text): %q", out)
	}
	c.fails(selah.ENOTFOUND, "keys", "create", "--email", "nobody@example.com")

	// keys list never shows key material.
	out = c.run("keys", "list", "--email", "ops@example.com", "--json")
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 3 {
		t.Fatalf("keys list --json: %q, %v", out, err)
	}
	for _, item := range list {
		if _, ok := item["key"]; ok {
			t.Fatalf("list item has a key: %v", item)
		}
	}
	if strings.Contains(out, k.Key[len(apikey.LivePrefix)+4:]) {
		t.Fatal("list shows key material")
	}
	if table := c.run("keys", "list", "--email", "ops@example.com"); !strings.Contains(table, k.ID) || !strings.Contains(table, "STATUS") || strings.Contains(table, k.Key) {
		t.Fatalf("keys list table: %q", table)
	}

	// rotate prints the new key like create; the old one is revoked.
	r := decodeNewKey(t, c.run("keys", "rotate", k.ID, "--json"))
	if r.ID == k.ID || r.Name != "ci" || r.ExpiresAt == nil {
		t.Fatalf("rotated = %+v", r)
	}
	if old, _ := c.st.KeyByID(ctx, k.ID); old.Status != store.KeyRevoked || old.ReplacedBy != r.ID {
		t.Fatalf("old key after rotate = %+v", old)
	}
	r2 := decodeNewKey(t, c.run("keys", "rotate", r.ID, "--grace", "1h", "--json"))
	if old, _ := c.st.KeyByID(ctx, r.ID); old.Status != store.KeyActive || old.ExpiresAt == nil || old.ReplacedBy != r2.ID {
		t.Fatalf("old key after rotate with grace = %+v", old)
	}

	if out := c.run("keys", "disable", tk.ID); !strings.Contains(out, "disabled "+tk.ID) {
		t.Fatalf("keys disable: %q", out)
	}
	if out := c.run("keys", "revoke", r2.ID); !strings.Contains(out, "revoked "+r2.ID) {
		t.Fatalf("keys revoke: %q", out)
	}
	c.run("keys", "revoke", r2.ID) // twice is fine
	c.fails(selah.ECONFLICT, "keys", "disable", r2.ID)
	c.fails(selah.ENOTFOUND, "keys", "revoke", "key_nope")
	c.fails(selah.ENOTFOUND, "keys", "rotate", "key_nope")

	// Plans and disabling accounts.
	c.run("accounts", "set-plan", "ops@example.com", "builder")
	if a, _ := c.st.AccountByEmail(ctx, "ops@example.com"); a.Plan.Name != "builder" {
		t.Fatalf("plan = %s", a.Plan.Name)
	}
	c.fails(selah.EINVALID, "accounts", "set-plan", "ops@example.com", "gold")
	c.fails(selah.ENOTFOUND, "accounts", "set-plan", "nobody@example.com", "pro")
	c.run("accounts", "disable", "ops@example.com")
	if a, _ := c.st.AccountByEmail(ctx, "ops@example.com"); a.Status != store.AccountDisabled {
		t.Fatalf("status = %s", a.Status)
	}
	c.fails(selah.EACCOUNTDISABLED, "keys", "create", "--email", "ops@example.com")
}

func TestAccountsCreatePassword(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	if _, err := c.runIn("s3cret pass\n", "accounts", "create", "--email", "web@example.com", "--admin", "--password-stdin"); err != nil {
		t.Fatal(err)
	}
	a, hash, err := c.st.AccountForLogin(context.Background(), "web@example.com")
	if err != nil || !a.IsAdmin || !a.Verified || !web.CheckPassword(hash, "s3cret pass") {
		t.Fatalf("account %+v, hash %q, %v", a, hash, err)
	}
	if _, err := c.runIn("", "accounts", "create", "--email", "empty@example.com", "--password-stdin"); selah.ErrorCode(err) != selah.EINVALID {
		t.Fatalf("empty password: %v", err)
	}
}

// TestAccountsVerify (issue 14, defect 6): in development the link of a
// website sign-up is only logged; "accounts verify" lets the account sign
// in without it, and retires its links.
func TestAccountsVerify(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	ctx := context.Background()
	su, err := c.st.SignUp(ctx, "site@example.com", "$argon2id$x", time.Now(), time.Hour)
	if err != nil || su.Account.Verified {
		t.Fatalf("SignUp = %+v, %v", su, err)
	}
	if out := c.run("accounts", "verify", "Site@Example.com"); out != "verified account site@example.com\n" {
		t.Fatalf("accounts verify printed %q", out)
	}
	if a, err := c.st.AccountByEmail(ctx, "site@example.com"); err != nil || !a.Verified {
		t.Fatalf("account after verify = %+v, %v", a, err)
	}
	if err := c.st.VerificationPending(ctx, su.Token, time.Now()); !errors.Is(err, selah.ErrNotFound) {
		t.Fatalf("the account's link still works: %v", err)
	}
	if out := c.run("accounts", "verify", "site@example.com"); !strings.Contains(out, "verified already") {
		t.Fatalf("verify again printed %q", out)
	}
	c.fails(selah.ENOTFOUND, "accounts", "verify", "nobody@example.com")
}

func TestEnsureDev(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	ctx := context.Background()
	banner := regexp.MustCompile(`Your dev API key \(shown once\): (svc_live_[0-9A-Za-z]{49})\n`)

	out := c.run("accounts", "ensure-dev")
	m := banner.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("first ensure-dev: %q", out)
	}
	kp, err := c.st.LookupKey(ctx, apikey.Hash(m[1]))
	if err != nil || kp.Account.Email != "dev@selah.local" || kp.Account.Plan.Name != "developer" || kp.Key.Name != "dev" || kp.Key.Test {
		t.Fatalf("dev key = %+v, %v", kp, err)
	}

	out = c.run("accounts", "ensure-dev")
	if strings.Contains(out, "svc_") || strings.Count(strings.TrimSpace(out), "\n") != 0 ||
		!strings.Contains(out, "selah keys create --email dev@selah.local") {
		t.Fatalf("second ensure-dev: %q", out)
	}

	// Without a usable key it issues a new one.
	if err := c.st.RevokeKey(ctx, kp.Key.ID); err != nil {
		t.Fatal(err)
	}
	out = c.run("accounts", "ensure-dev")
	if m2 := banner.FindStringSubmatch(out); m2 == nil || m2[1] == m[1] {
		t.Fatalf("ensure-dev after revoke: %q", out)
	}
}

func TestPlansCLI(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	out := c.run("accounts", "plans")
	if !regexp.MustCompile(`(?m)^\s*free\s+5\s+1\s+10\s+100\s+5\s*$`).MatchString(out) {
		t.Fatalf("plans:\n%s", out)
	}
	out = c.run("accounts", "plans", "--set", "developer", "--asks-per-day", "250", "--concurrent", "6")
	if !regexp.MustCompile(`(?m)^\s*developer\s+60\s+6\s+250\s+3000\s+10\s*$`).MatchString(out) {
		t.Fatalf("plans after --set:\n%s", out)
	}
	c.fails(selah.EINVALID, "accounts", "plans", "--set", "gold")
	c.fails(selah.EINVALID, "accounts", "plans", "--set", "free", "--requests-per-minute", "0")
}
