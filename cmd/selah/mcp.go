package main

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/selahdev/selah/mcp"
)

func newMCPCmd(cfg *config) *cobra.Command {
	var apiURL string
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the selah API to AI agents as an MCP server over stdio",
		Long: `mcp runs a Model Context Protocol server on stdin and stdout for an AI
client (Claude Desktop, VS Code, Cursor, ...) to start. Its tools
(lookup_passage, search_scripture, ask_bible, list_topics, get_topic,
verify_citation, find_references, usage), resources (kjv://{book}/{chapter},
kjv://{book}/{chapter}/{verse}, kjv://topics/{slug}, kjv://books) and prompts
(word_study, topical_study, what_does_the_text_say) call the selah HTTP API
at --api-url. It needs no database or Redis. Every tool call carries the
user's API key in its apiKey argument; the literal "env" there, and every
resource read, use SELAH_API_KEY from this process's environment instead.
Logs go to stderr; stdout is the protocol.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return mcp.ServeStdio(cmd.Context(), mcp.Config{APIURL: apiURL, Logger: cfg.logger(), Version: version,
				EnvAPIKey: strings.TrimSpace(os.Getenv("SELAH_API_KEY"))})
		},
	}
	envFlag(cmd.Flags(), cmd.Flags().StringVar, &apiURL, "api-url", "SELAH_API_URL", "http://127.0.0.1:8080",
		"base URL of the selah deployment whose API the tools call (env SELAH_API_URL)")
	return cmd
}
