package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
)

func newEvalCmd(cfg *config) *cobra.Command {
	var (
		file    string
		k       int
		misses  bool
		ask     bool
		maxRefs int
	)
	cmd := &cobra.Command{
		Use:   "eval [--file cases.jsonl] [--k 10] [--misses]",
		Short: "Measure retrieval: hit@1, hit@k and MRR for full text, vectors and hybrid",
		Long: `eval runs the retrieval test set (pipeline/testdata/eval/search.jsonl, built
in; --file for another) against the ingested corpus with the configured
embedder, in each mode: PostgreSQL full text only, vector search only, and
the hybrid the API uses. It prints hit@1, hit@k and MRR overall and per kind
of query (near-quotes, modern paraphrases, topical questions).

With --ask it measures answers instead (pipeline/testdata/eval/ask.jsonl):
the share of answers citing an expected verse, and the share of cited
references that are grounded (retrieved, with the database's text), which
must be 100%. The generator is the configured one (SELAH_GENERATOR).`,
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
			if ask {
				return evalAsk(cmd, st, pipeline.NewRetriever(st, e), file, maxRefs, misses)
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
	cmd.Flags().BoolVar(&ask, "ask", false, "evaluate answers (POST /ask) instead of retrieval")
	cmd.Flags().IntVar(&maxRefs, "max-references", pipeline.DefaultMaxRefs, "with --ask: references per answer")
	return cmd
}

func evalAsk(cmd *cobra.Command, st *store.Store, r *pipeline.Retriever, file string, maxRefs int, misses bool) error {
	chatCfg, err := pipeline.ChatConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	g, err := pipeline.NewGenerator(chatCfg)
	if err != nil {
		return err
	}
	cases, err := pipeline.DefaultAskCases()
	if file != "" {
		f, ferr := os.Open(file)
		if ferr != nil {
			return ferr
		}
		defer f.Close()
		cases, err = pipeline.ReadAskCases(f)
	}
	if err != nil {
		return err
	}
	a := pipeline.NewAnswerer(st, r, g)
	if a.Router, err = pipeline.LoadNaveRouter(cmd.Context(), st); err != nil {
		return err
	}
	rep, err := pipeline.EvaluateAsk(cmd.Context(), a, cases, maxRefs)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if err := rep.WriteTable(out); err != nil {
		return err
	}
	if misses {
		if err := rep.WriteMisses(out); err != nil {
			return err
		}
	}
	if rep.GroundedShare < 1 {
		return fmt.Errorf("eval: %d ungrounded references", len(rep.Ungrounded))
	}
	return nil
}
