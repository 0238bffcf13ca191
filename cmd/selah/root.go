package main

import (
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
	}
	cfg.bind(root)
	root.AddCommand(
		newMigrateCmd(cfg),
		newIngestCmd(cfg),
		newServeCmd(cfg),
		newWebCmd(cfg),
		newWorkerCmd(cfg),
		newEvalCmd(cfg),
		newBenchCmd(cfg),
		newAccountsCmd(cfg),
		newKeysCmd(cfg),
		newMCPCmd(cfg),
	)
	return root
}
