package main

import (
	"fmt"
	"os"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/selahdev/selah/ingest"
	"github.com/selahdev/selah/pipeline"
)

func newIngestCmd(cfg *config) *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "ingest",
		Short: "Load the KJV (and WEB retrieval aid) and Nave's Topical Bible from the SWORD modules into the database",
		Long: `ingest reads the SWORD modules (Debian's sword-text-kjv, sword-text-web and
sword-dict-naves) from --sword-dir, checks the KJV versification (66 books, 1,189 chapters,
31,102 verses), and replaces the corpus in one transaction. It is skipped when
the modules are unchanged since the last run, unless --force is given.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg.logger()
			ctx := cmd.Context()
			st, err := cfg.openStore(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			if err := migrateIfBehind(ctx, st, cfg.logger()); err != nil {
				return err
			}
			emb, err := pipeline.EmbedderConfigFromEnv(os.Getenv)
			if err != nil {
				return err
			}
			opts := ingest.Options{SwordDir: cfg.SwordDir, Force: force, Embedder: emb}
			if isatty.IsTerminal(os.Stderr.Fd()) {
				opts.Progress = os.Stderr
			}
			rep, err := ingest.Run(ctx, st, opts)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if rep.Skipped {
				fmt.Fprintf(out, "corpus is current (%d verses)", rep.Verses)
			} else {
				fmt.Fprintf(out, "ingested %d books, %d chapters, %d KJV verses (%d with WEB wording)",
					rep.Books, rep.Chapters, rep.Verses, rep.WebVerses)
				n := rep.Naves
				fmt.Fprintf(out, "; Nave's: %d topics, %d entries, %d verse runs, %d see-links (%d to a topic); "+
					"%d unreadable references %q, %d left unlinked %q (read %s, write %s)",
					n.Topics, n.Entries, n.VerseRuns, n.SeeLinks, n.SeeResolved,
					n.Unreadable, n.UnreadableExamples, n.Unlinked, n.UnlinkedExamples,
					n.Read.Round(time.Millisecond), n.Write.Round(time.Millisecond))
				fmt.Fprintf(out, "; Strong's: %d lemmas, %d tagged KJV words", rep.Strongs.Lemmas, rep.Strongs.Words)
			}
			ix := rep.Index
			switch {
			case ix.Kind == pipeline.KindLocal:
				fmt.Fprint(out, "; no embeddings index (local: retrieval indexes in memory at start)")
			case ix.Skipped:
				fmt.Fprintf(out, "; %s index is current (%d dims)", ix.Embedder, ix.Dims)
			default:
				fmt.Fprintf(out, "; built the %s index (%d verses, %d dims: embed %s, write %s)",
					ix.Embedder, ix.Verses, ix.Dims, ix.Embed.Round(time.Millisecond), ix.Write.Round(time.Millisecond))
			}
			fmt.Fprintf(out, " in %s\n", rep.Duration.Round(time.Millisecond))
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "re-ingest even when the modules are unchanged")
	return cmd
}
