package main

import (
	"context"
	"strings"
	"testing"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
)

// TestEnableCLI: disable is undone by enable, for keys and accounts;
// revoke is not; help says which is which.
func TestEnableCLI(t *testing.T) {
	c := newCLI(t)
	ctx := context.Background()
	c.run("accounts", "create", "--email", "enable@example.com", "--plan", "free")
	k := decodeNewKey(t, c.run("keys", "create", "--email", "enable@example.com", "--json"))

	c.run("keys", "disable", k.ID)
	if got, _ := c.st.KeyByID(ctx, k.ID); got.Status != store.KeyDisabled {
		t.Fatalf("status after disable = %s", got.Status)
	}
	if out := c.run("keys", "enable", k.ID); !strings.Contains(out, "enabled "+k.ID) {
		t.Fatalf("enable printed %q", out)
	}
	if got, _ := c.st.KeyByID(ctx, k.ID); got.Status != store.KeyActive {
		t.Fatalf("status after enable = %s", got.Status)
	}
	c.run("keys", "enable", k.ID) // enabling an active key is a no-op
	c.run("keys", "revoke", k.ID)
	c.fails(selah.ECONFLICT, "keys", "enable", k.ID)
	c.fails(selah.ENOTFOUND, "keys", "enable", "key_doesnotexist")

	c.run("accounts", "disable", "enable@example.com")
	if a, _ := c.st.AccountByEmail(ctx, "enable@example.com"); a.Status != "disabled" {
		t.Fatalf("account status %s after disable", a.Status)
	}
	if out := c.run("accounts", "enable", "Enable@Example.com"); !strings.Contains(out, "enabled account enable@example.com") {
		t.Fatalf("accounts enable printed %q", out)
	}
	if a, _ := c.st.AccountByEmail(ctx, "enable@example.com"); a.Status != "active" {
		t.Fatalf("account status %s after enable", a.Status)
	}

	// Enabling respects the plan's active keys: with the free plan's keys
	// all in use, a disabled key stays disabled.
	var ids []string
	for {
		out, err := c.runIn("", "keys", "create", "--email", "enable@example.com", "--json")
		if err != nil {
			break
		}
		ids = append(ids, decodeNewKey(t, out).ID)
	}
	c.run("keys", "disable", ids[0])
	c.run("keys", "create", "--email", "enable@example.com", "--json")
	c.fails(selah.ECONFLICT, "keys", "enable", ids[0])

	help := c.run("keys", "--help")
	for _, w := range []string{"disable  is temporary", "revoke   is final", "enable"} {
		if !strings.Contains(help, w) {
			t.Errorf("keys --help lacks %q", w)
		}
	}
	if h := c.run("migrate", "--help"); !strings.Contains(h, "Migrations only move forward") || strings.Count(h, "\n") < 10 {
		t.Errorf("migrate --help:\n%s", h)
	}
	if v := c.run("version"); v != "selah "+version+"\n" {
		t.Errorf("version printed %q", v)
	}
}
