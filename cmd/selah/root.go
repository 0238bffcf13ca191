package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newRootCmd() *cobra.Command {
	cfg := &config{}
	root := &cobra.Command{
		Use:           "selah",
		Short:         "selah serves the King James Bible to applications and agents",
		Long:          "selah serves KJV passage lookup, topic hubs, semantic search and grounded answers over an HTTP API with keys, plans and quotas.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
		// Environment values are parsed here, after the flags, so that a
		// flag overrides its variable and a malformed one stops any
		// command before it starts.
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error { return applyEnv(cmd) },
	}
	cfg.bind(root)
	root.AddCommand(
		newMigrateCmd(cfg),
		newIngestCmd(cfg),
		newServeCmd(cfg),
		newWebCmd(cfg),
		newWorkerCmd(cfg),
		newEvalCmd(cfg),
		newTrainCmd(cfg),
		newBenchCmd(cfg),
		newAccountsCmd(cfg),
		newKeysCmd(cfg),
		newMCPCmd(cfg),
		newVersionCmd(),
		newReportsCmd(cfg),
	)
	return root
}

// newVersionCmd prints the build's version, as --version does.
func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of this selah binary",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintf(cmd.OutOrStdout(), "selah %s\n", version)
		},
	}
}
