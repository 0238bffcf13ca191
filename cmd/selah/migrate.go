package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newMigrateCmd(cfg *config) *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Apply pending database migrations",
		Long: `migrate brings the database at DATABASE_URL (or --database-url) up to the
schema this binary expects, applying the numbered SQL migrations embedded
in it (store/migrations) in order, each in its own transaction, with goose.
It prints how many it applied and nothing when the schema is current, so it
is safe to run on every deploy; serve, web, worker, ingest and the admin
commands also migrate a database that is behind.

Migrations only move forward: there is no down command. A failed migration
is rolled back and reported; fix the cause and run migrate again.`,
		Example: `  selah migrate
  DATABASE_URL=postgres://db.internal:5432/selah?sslmode=require selah migrate`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg.logger()
			st, err := cfg.openStore(cmd.Context())
			if err != nil {
				return err
			}
			defer st.Close()
			n, err := st.Migrate(cmd.Context())
			if err != nil {
				return err
			}
			if n > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "applied %d migration(s)\n", n)
			}
			return nil
		},
	}
}
