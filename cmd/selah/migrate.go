package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newMigrateCmd(cfg *config) *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Apply pending database migrations",
		Args:  cobra.NoArgs,
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
