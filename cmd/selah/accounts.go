package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web"
)

// devEmail is the account `make run` sets up (accounts ensure-dev).
const devEmail = "dev@selah.local"

func newAccountsCmd(cfg *config) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "accounts",
		Short: "Create and manage API accounts",
		Long: `accounts manages the accounts that own API keys, their plans and the plans'
limits. Disabling an account refuses all its keys (403 account_disabled)
until "accounts enable"; the keys themselves are left as they were.
Accounts made on the website's sign-up page sign in once their e-mail
address is verified (the link sent to it, or "accounts verify").`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(
		newAccountsCreateCmd(cfg),
		newAccountsSetPlanCmd(cfg),
		newAccountsDisableCmd(cfg),
		newAccountsEnableCmd(cfg),
		newAccountsVerifyCmd(cfg),
		newAccountsEnsureDevCmd(cfg),
		newAccountsPlansCmd(cfg),
	)
	return cmd
}

// openAdminStore opens the database for an admin command, migrating it first
// like ingest does, so the commands work on a fresh database.
func openAdminStore(ctx context.Context, cfg *config) (*store.Store, error) {
	log := cfg.logger()
	st, err := cfg.openStore(ctx)
	if err != nil {
		return nil, err
	}
	if err := migrateIfBehind(ctx, st, log); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

// withAdminStore is the RunE of an admin command: fn runs with the
// database opened (and migrated) and closes it afterwards.
func withAdminStore(cfg *config, fn func(ctx context.Context, st *store.Store, cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		ctx := cmd.Context()
		st, err := openAdminStore(ctx, cfg)
		if err != nil {
			return err
		}
		defer st.Close()
		return fn(ctx, st, cmd, args)
	}
}

// accountByEmail is AccountByEmail with a message for people.
func accountByEmail(ctx context.Context, st *store.Store, email string) (store.Account, error) {
	a, err := st.AccountByEmail(ctx, email)
	return a, noAccount(err, email)
}

// noAccount turns selah.ErrNotFound from an account lookup by email into
// a message for people.
func noAccount(err error, email string) error {
	if errors.Is(err, selah.ErrNotFound) {
		return selah.Errorf(selah.ENOTFOUND, "no account with email %s", store.NormalizeEmail(email))
	}
	return err
}

// readPassword reads a password from the first line of r.
func readPassword(r io.Reader) (string, error) {
	line, err := bufio.NewReader(io.LimitReader(r, 4096)).ReadString('\n')
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("read password from stdin: %w", err)
	}
	pw := strings.TrimRight(line, "\r\n")
	if pw == "" {
		return "", selah.Errorf(selah.EINVALID, "--password-stdin: no password on standard input")
	}
	return pw, nil
}

func newAccountsCreateCmd(cfg *config) *cobra.Command {
	var (
		email, plan   string
		admin, pwdStd bool
	)
	cmd := &cobra.Command{
		Use:   "create --email EMAIL [--plan PLAN] [--admin] [--password-stdin]",
		Short: "Create an account",
		Long: `create makes an account. Without --password-stdin it has no password and
cannot sign in to the website; its keys are managed with "selah keys".
--password-stdin reads the password from the first line of standard input
(it is stored as an argon2id hash).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			var hash string
			if pwdStd {
				pw, err := readPassword(cmd.InOrStdin())
				if err != nil {
					return err
				}
				if hash, err = web.HashPassword(pw); err != nil {
					return err
				}
			}
			st, err := openAdminStore(ctx, cfg)
			if err != nil {
				return err
			}
			defer st.Close()
			a, err := st.CreateAccount(ctx, email, hash, plan, admin)
			if err != nil {
				return err
			}
			role := ""
			if a.IsAdmin {
				role = ", admin"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "created account %d: %s (plan %s%s)\n", a.ID, a.Email, a.Plan.Name, role)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&email, "email", "", "email address of the account (required)")
	f.StringVar(&plan, "plan", store.PlanFree, "plan: free, developer, builder, pro or internal")
	f.BoolVar(&admin, "admin", false, "make the account an administrator")
	f.BoolVar(&pwdStd, "password-stdin", false, "read a website password from standard input")
	cmd.MarkFlagRequired("email")
	return cmd
}

func newAccountsSetPlanCmd(cfg *config) *cobra.Command {
	return &cobra.Command{
		Use:   "set-plan EMAIL PLAN",
		Short: "Move an account to another plan (free, developer, builder, pro, internal)",
		Args:  cobra.ExactArgs(2),
		RunE: withAdminStore(cfg, func(ctx context.Context, st *store.Store, cmd *cobra.Command, args []string) error {
			email, plan := args[0], args[1]
			if err := st.SetPlan(ctx, email, plan); err != nil {
				return noAccount(err, email)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s is now on plan %s\n", store.NormalizeEmail(email), plan)
			return nil
		}),
	}
}

// storeAction is an admin command that does act to its one argument (a
// key id, an account's e-mail) and prints done(arg); notFound says a missing
// one in words for people.
func storeAction(cfg *config, use, short string, act func(context.Context, *store.Store, string) error,
	notFound func(error, string) error, done func(string) string) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: withAdminStore(cfg, func(ctx context.Context, st *store.Store, cmd *cobra.Command, args []string) error {
			if err := act(ctx, st, args[0]); err != nil {
				return notFound(err, args[0])
			}
			fmt.Fprintln(cmd.OutOrStdout(), done(args[0]))
			return nil
		}),
	}
}

// accountAction is the shape of disable and enable: one account, one store
// call, "<done> account <email>".
func accountAction(cfg *config, use, short, done string, act func(context.Context, *store.Store, string) error) *cobra.Command {
	return storeAction(cfg, use, short, act, noAccount, func(email string) string {
		return done + " account " + store.NormalizeEmail(email)
	})
}

func newAccountsDisableCmd(cfg *config) *cobra.Command {
	return accountAction(cfg, "disable EMAIL", "Disable an account: all its keys are refused (403 account_disabled) until \"accounts enable\"", "disabled",
		func(ctx context.Context, st *store.Store, email string) error { return st.DisableAccount(ctx, email) })
}

func newAccountsEnableCmd(cfg *config) *cobra.Command {
	return accountAction(cfg, "enable EMAIL", "Enable a disabled account: its keys work again (except revoked, disabled or expired ones)", "enabled",
		func(ctx context.Context, st *store.Store, email string) error { return st.EnableAccount(ctx, email) })
}

func newAccountsVerifyCmd(cfg *config) *cobra.Command {
	return &cobra.Command{
		Use:   "verify EMAIL",
		Short: "Mark an account's e-mail address verified, as its link would (development and operators)",
		Long: `verify lets an account made on the sign-up page sign in without following
the link sent to its address: in development that link is only written to
the log. The account keeps the password of its latest sign-up, and its
pending links stop working. Accounts made with "accounts create" are
verified already.`,
		Args: cobra.ExactArgs(1),
		RunE: withAdminStore(cfg, func(ctx context.Context, st *store.Store, cmd *cobra.Command, args []string) error {
			already, err := st.MarkVerified(ctx, args[0], time.Now())
			if err != nil {
				return noAccount(err, args[0])
			}
			if already {
				fmt.Fprintf(cmd.OutOrStdout(), "account %s was verified already\n", store.NormalizeEmail(args[0]))
				return nil
			}
			fmt.Fprintf(cmd.OutOrStdout(), "verified account %s\n", store.NormalizeEmail(args[0]))
			return nil
		}),
	}
}

func newAccountsEnsureDevCmd(cfg *config) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ensure-dev",
		Short: "Create the local dev account and print its API key once (used by make run)",
		Long: `ensure-dev makes sure the account ` + devEmail + ` exists on plan developer.
When it creates the account, or the account has no usable key, it creates a
live key named "dev" and prints it once. Otherwise it prints a one-line note:
keys are stored only as hashes, so an existing key cannot be shown again.`,
		Args: cobra.NoArgs,
		RunE: withAdminStore(cfg, func(ctx context.Context, st *store.Store, cmd *cobra.Command, _ []string) error {
			return ensureDev(ctx, st, cmd.OutOrStdout(), cfg.Port)
		}),
	}
	// The port only goes into the example URL it prints.
	cfg.bindPort(cmd)
	return cmd
}

func ensureDev(ctx context.Context, st *store.Store, out io.Writer, port int) error {
	a, err := st.AccountByEmail(ctx, devEmail)
	if errors.Is(err, selah.ErrNotFound) {
		a, err = st.CreateAccount(ctx, devEmail, "", store.PlanDeveloper, false)
		if selah.ErrorCode(err) == selah.ECONFLICT {
			// Another ensure-dev created it a moment ago.
			a, err = st.AccountByEmail(ctx, devEmail)
		}
	}
	if err != nil {
		return err
	}
	keys, err := st.ListKeys(ctx, a.ID)
	if err != nil {
		return err
	}
	now := time.Now()
	for _, k := range keys {
		if k.State(now) == store.KeyActive && k.ReplacedBy == "" {
			fmt.Fprintf(out, "dev account %s exists with an active key (keys are shown only once); create another with: selah keys create --email %s\n", devEmail, devEmail)
			return nil
		}
	}
	key, k, err := st.CreateKey(ctx, a.ID, "dev", false, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, `
================================================================================
  Your dev API key (shown once): %s

  Account %s, plan %s, key id %s.
  Save it now: only its hash is stored, so it cannot be shown again
  (create another with: selah keys create --email %s).

  curl -H "Authorization: Bearer %s" \
       'http://127.0.0.1:%d/api/v1/scripture?ref=John+3:16'
================================================================================

`, key, devEmail, a.Plan.Name, k.ID, devEmail, key, port)
	return nil
}
