package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/selahdev/selah/pipeline"
)

func newEvalCmd(cfg *config) *cobra.Command {
	var (
		file   string
		k      int
		misses bool
	)
	cmd := &cobra.Command{
		Use:   "eval [--file cases.jsonl] [--k 10] [--misses]",
		Short: "Measure retrieval: hit@1, hit@k and MRR for full text, vectors and hybrid",
		Long: `eval runs the retrieval test set (pipeline/testdata/eval/search.jsonl, built
in; --file for another) against the ingested corpus with the configured
embedder, in each mode: PostgreSQL full text only, vector search only, and
the hybrid the API uses. It prints hit@1, hit@k and MRR overall and per kind
of query (near-quotes, modern paraphrases, topical questions).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cfg.logger()
			st, err := cfg.openStore(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			embCfg, err := pipeline.EmbedderConfigFromEnv(os.Getenv)
			if err != nil {
				return err
			}
			e, err := pipeline.LoadEmbedder(ctx, st, embCfg)
			if err != nil {
				return err
			}
			cases, err := pipeline.DefaultEvalCases()
			if file != "" {
				f, ferr := os.Open(file)
				if ferr != nil {
					return ferr
				}
				defer f.Close()
				cases, err = pipeline.ReadEvalCases(f)
			}
			if err != nil {
				return err
			}
			rep, err := pipeline.Evaluate(ctx, pipeline.NewRetriever(st, e), cases, k)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "%d queries, embedder %s, top %d\n\n", len(cases), rep.Embedder, k)
			if err := rep.WriteTable(out); err != nil {
				return err
			}
			if misses {
				for _, mr := range rep.Modes {
					for _, m := range mr.Misses {
						fmt.Fprintf(out, "miss %-8s %-10s %q -> %v\n", mr.Mode, m.Kind, m.Query, m.Top[:min(3, len(m.Top))])
					}
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "file", "", "JSON-lines test set instead of the built-in one")
	cmd.Flags().IntVar(&k, "k", 10, "how many results count")
	cmd.Flags().BoolVar(&misses, "misses", false, "list the queries each mode missed")
	return cmd
}
