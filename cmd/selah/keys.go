package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
)

func newKeysCmd(cfg *config) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "Create, list, revoke, rotate, disable and enable API keys",
		Long: `keys manages API keys. A key is printed once, by create and rotate; only
its SHA-256 is stored. Keys are named by their public id (key_...), which
"keys list" shows.

Disable and revoke both stop a key within a second (403 key_disabled or
key_revoked), but differently:
  disable  is temporary: "keys enable" makes the key work again, and a
           disabled key does not count toward the plan's active keys;
  revoke   is final: a revoked key can never be used again; make a new
           one with create (or rotate, which revokes the old key for you).`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(
		newKeysCreateCmd(cfg),
		newKeysListCmd(cfg),
		newKeysRevokeCmd(cfg),
		newKeysRotateCmd(cfg),
		newKeysDisableCmd(cfg),
		newKeysEnableCmd(cfg),
	)
	return cmd
}

// newKeyJSON is what create and rotate print with --json: the only place
// the key appears.
type newKeyJSON struct {
	ID        string     `json:"id"`
	Key       string     `json:"key"`
	Prefix    string     `json:"prefix"`
	Name      string     `json:"name"`
	Test      bool       `json:"test"`
	CreatedAt time.Time  `json:"createdAt"`
	ExpiresAt *time.Time `json:"expiresAt"`
}

// keyJSON is one key in "keys list --json". It never holds key material.
// Status is the effective state: active, revoked, disabled or expired.
type keyJSON struct {
	ID         string     `json:"id"`
	Prefix     string     `json:"prefix"`
	Name       string     `json:"name"`
	Test       bool       `json:"test"`
	Status     string     `json:"status"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
	ExpiresAt  *time.Time `json:"expiresAt"`
	RevokedAt  *time.Time `json:"revokedAt"`
	ReplacedBy *string    `json:"replacedBy"`
}

// writeJSON prints v as one line of JSON.
func writeJSON(w io.Writer, v any) error {
	return json.NewEncoder(w).Encode(v)
}

// printNewKey prints a key just created or rotated.
func printNewKey(w io.Writer, key string, k store.APIKey, asJSON bool) error {
	if asJSON {
		return writeJSON(w, newKeyJSON{ID: k.ID, Key: key, Prefix: k.Prefix, Name: k.Name, Test: k.Test,
			CreatedAt: k.CreatedAt, ExpiresAt: k.ExpiresAt})
	}
	fmt.Fprintf(w, "API key (shown once, save it now): %s\n", key)
	fmt.Fprintf(w, "  id       %s\n  name     %s\n  mode     %s\n  expires  %s\n",
		k.ID, k.Name, mode(k.Test), timeOr(k.ExpiresAt, "never"))
	return nil
}

func mode(test bool) string {
	if test {
		return "test"
	}
	return "live"
}

func timeOr(t *time.Time, def string) string {
	if t == nil {
		return def
	}
	return t.UTC().Format(time.RFC3339)
}

// keyNotFound turns selah.ErrNotFound into a message for people.
func keyNotFound(err error, id string) error {
	if errors.Is(err, selah.ErrNotFound) {
		return selah.Errorf(selah.ENOTFOUND, "no key with id %s (see selah keys list --email ...)", id)
	}
	return err
}

func newKeysCreateCmd(cfg *config) *cobra.Command {
	var (
		email, name  string
		test, asJSON bool
		expires      time.Duration
	)
	cmd := &cobra.Command{
		Use:   "create --email EMAIL [--test] [--name NAME] [--expires 720h] [--json]",
		Short: "Create an API key and print it once",
		Args:  cobra.NoArgs,
		PreRunE: func(*cobra.Command, []string) error {
			if expires < 0 {
				return selah.Errorf(selah.EINVALID, "--expires must be positive (0 means never)")
			}
			return nil
		},
		RunE: withAdminStore(cfg, func(ctx context.Context, st *store.Store, cmd *cobra.Command, _ []string) error {
			a, err := accountByEmail(ctx, st, email)
			if err != nil {
				return err
			}
			var exp *time.Time
			if expires > 0 {
				t := time.Now().Add(expires).UTC()
				exp = &t
			}
			key, k, err := st.CreateKey(ctx, a.ID, name, test, exp)
			if err != nil {
				return err
			}
			return printNewKey(cmd.OutOrStdout(), key, k, asJSON)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&email, "email", "", "email address of the account (required)")
	f.BoolVar(&test, "test", false, "create a test key (svc_test_) instead of a live one")
	f.StringVar(&name, "name", "", "a name to recognise the key by")
	f.DurationVar(&expires, "expires", 0, "lifetime of the key, e.g. 720h (default: never expires)")
	f.BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.MarkFlagRequired("email")
	return cmd
}

func newKeysListCmd(cfg *config) *cobra.Command {
	var (
		email  string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "list --email EMAIL [--json]",
		Short: "List an account's keys (never the keys themselves)",
		Args:  cobra.NoArgs,
		RunE: withAdminStore(cfg, func(ctx context.Context, st *store.Store, cmd *cobra.Command, _ []string) error {
			a, err := accountByEmail(ctx, st, email)
			if err != nil {
				return err
			}
			keys, err := st.ListKeys(ctx, a.ID)
			if err != nil {
				return err
			}
			return printKeys(cmd.OutOrStdout(), keys, time.Now(), asJSON)
		}),
	}
	cmd.Flags().StringVar(&email, "email", "", "email address of the account (required)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	cmd.MarkFlagRequired("email")
	return cmd
}

func printKeys(w io.Writer, keys []store.APIKey, now time.Time, asJSON bool) error {
	if asJSON {
		out := make([]keyJSON, 0, len(keys))
		for _, k := range keys {
			j := keyJSON{ID: k.ID, Prefix: k.Prefix, Name: k.Name, Test: k.Test, Status: k.State(now),
				CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt, ExpiresAt: k.ExpiresAt, RevokedAt: k.RevokedAt}
			if k.ReplacedBy != "" {
				j.ReplacedBy = &k.ReplacedBy
			}
			out = append(out, j)
		}
		return writeJSON(w, out)
	}
	if len(keys) == 0 {
		fmt.Fprintln(w, "no keys")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tPREFIX\tMODE\tSTATUS\tCREATED\tLAST USED\tEXPIRES")
	for _, k := range keys {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Name, k.Prefix, mode(k.Test), k.State(now),
			k.CreatedAt.UTC().Format(time.RFC3339), timeOr(k.LastUsedAt, "never"), timeOr(k.ExpiresAt, "never"))
	}
	return tw.Flush()
}

// keyAction is the shape of revoke, disable and enable: one key id, one
// store call, "<done> <id>".
func keyAction(cfg *config, use, short, done string, act func(context.Context, *store.Store, string) error) *cobra.Command {
	return storeAction(cfg, use, short, act, keyNotFound, func(id string) string { return done + " " + id })
}

func newKeysRevokeCmd(cfg *config) *cobra.Command {
	return keyAction(cfg, "revoke ID", "Revoke a key for good (refused within a second; cannot be undone, unlike disable)", "revoked",
		func(ctx context.Context, st *store.Store, id string) error { return st.RevokeKey(ctx, id) })
}

func newKeysDisableCmd(cfg *config) *cobra.Command {
	return keyAction(cfg, "disable ID", "Disable a key for now (403 key_disabled until \"keys enable\"; unlike revoke, reversible)", "disabled",
		func(ctx context.Context, st *store.Store, id string) error { return st.DisableKey(ctx, id) })
}

func newKeysEnableCmd(cfg *config) *cobra.Command {
	return keyAction(cfg, "enable ID", "Enable a disabled key again (a revoked key cannot be enabled)", "enabled",
		func(ctx context.Context, st *store.Store, id string) error { return st.EnableKey(ctx, id) })
}

func newKeysRotateCmd(cfg *config) *cobra.Command {
	var (
		grace  time.Duration
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "rotate ID [--grace 0s] [--json]",
		Short: "Issue a new key in place of a key and print it once",
		Long: `rotate issues a new key with the old key's name, mode and lifetime and
prints it once. With --grace 0s (the default) the old key is revoked at once;
with a positive --grace it keeps working until then and is refused as expired
afterwards.`,
		Args: cobra.ExactArgs(1),
		PreRunE: func(*cobra.Command, []string) error {
			if grace < 0 {
				return selah.Errorf(selah.EINVALID, "--grace must not be negative")
			}
			return nil
		},
		RunE: withAdminStore(cfg, func(ctx context.Context, st *store.Store, cmd *cobra.Command, args []string) error {
			key, k, err := st.RotateKey(ctx, args[0], grace)
			if err != nil {
				return keyNotFound(err, args[0])
			}
			return printNewKey(cmd.OutOrStdout(), key, k, asJSON)
		}),
	}
	cmd.Flags().DurationVar(&grace, "grace", 0, "how long the old key keeps working (0: revoked at once)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}
