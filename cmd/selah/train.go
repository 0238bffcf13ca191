package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/selahdev/selah/pipeline/wordvec"
	"github.com/selahdev/selah/pipeline/wordvec/train"
)

func newTrainCmd(cfg *config) *cobra.Command {
	p := train.DefaultParams
	var out, wordnetDir, workDir string
	var keep bool
	var fromVec string
	cmd := &cobra.Command{
		Use:   "train",
		Short: "Reproduce the word vectors from the Debian data (fastText, about 25 minutes)",
		Long: `train reproduces selah's word vectors, which the semantic verse index
(SIF) loads at start, from the Debian data alone:

  - the KJV and the WEB (sword-text-kjv, sword-text-web) from --sword-dir,
  - Strong's Hebrew and Greek dictionaries (sword-dict-strongs-hebrew/-greek),
  - Nave's Topical Bible (sword-dict-naves),
  - WordNet 3.0 glosses (wordnet-base) from --wordnet-dir,
  - and one aligned line per verse pairing, for each Strong's lemma, the KJV's
    word, the WEB's word and the head of Strong's gloss.

It assembles that corpus (5.6 million tokens in 230,000 lines; 10-40 seconds),
trains fastText skipgram vectors on it with Debian's fasttext command (200
dimensions, window 5, 15 epochs, min count 5, no character n-grams, seed 1)
and writes the vectors of its 35,925 words, int8-quantized, to --out (7.8 MB).

Training runs on one thread, because fastText's threads share the model
without locks and only one thread gives the same file on every run. The
committed file took 28 minutes on a 2-core machine beside evaluation runs,
and a second run, 41 minutes beside the test suite, wrote the same file
(2026-11-29; the file before it, trained while the WEB's glossary was still
read as the text of Revelation 22:21, took 23.5 minutes); the earlier
100-dimension, 5-epoch file took 30 to 38 minutes on a shared machine under
heavy load.
--threads 2 is faster but gives a slightly different file each time.

It prints the file's SHA-256. To ship new vectors, commit the file together
with that checksum as wordvec.DefaultSHA256 in pipeline/wordvec/default.go:
the service refuses a vectors file whose checksum it does not expect.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			dir := workDir
			// --from-vec trains nothing, so it needs no work directory.
			if fromVec == "" && dir == "" {
				d, err := os.MkdirTemp("", "selah-train-")
				if err != nil {
					return err
				}
				dir = d
				if !keep {
					defer os.RemoveAll(d)
				}
			} else if fromVec == "" {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return err
				}
			}
			tmp := out + ".tmp"
			f, err := os.Create(tmp)
			if err != nil {
				return err
			}
			defer os.Remove(tmp)
			errOut := cmd.ErrOrStderr()
			src := train.Sources{SwordDir: cfg.SwordDir, WordNetDir: wordnetDir}
			var rep train.Report
			if fromVec != "" {
				fmt.Fprintf(errOut, "assembling the corpus for its word counts and encoding %s\n", fromVec)
				rep, err = train.FromVec(ctx, src, p, fromVec, f)
			} else {
				fmt.Fprintf(errOut, "assembling the corpus and training in %s (fastText %+v)\n", dir, p)
				rep, err = train.Train(ctx, src, p, dir, f, errOut)
			}
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
			if err := os.Rename(tmp, out); err != nil {
				return err
			}
			o := cmd.OutOrStdout()
			fmt.Fprintf(o, "corpus: %d tokens, lines %v, sha256 %s (assembled in %s)\n",
				rep.Corpus.Tokens, rep.Corpus.Lines, rep.Corpus.SHA256, rep.Assemble.Round(time.Millisecond))
			if rep.Corpus.SHA256 != train.CorpusSHA256 {
				fmt.Fprintf(o, "the corpus differs from the one the committed vectors were trained on (%s): the modules changed\n", train.CorpusSHA256)
			}
			if fromVec == "" {
				fmt.Fprintf(o, "trained in %s\n", rep.Fit.Round(time.Second))
			}
			fmt.Fprintf(o, "wrote %s: %d words x %d dims, %d bytes\n", out, rep.Words, p.Dims, rep.Bytes)
			fmt.Fprintf(o, "sha256 %s\n", rep.SHA256)
			if rep.SHA256 != wordvec.DefaultSHA256 {
				fmt.Fprintf(o, "this differs from wordvec.DefaultSHA256 (%s): to ship it, set that constant in pipeline/wordvec/default.go\n", wordvec.DefaultSHA256)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", filepath.FromSlash("pipeline/wordvec/vectors.bin"), "where to write the vectors file")
	envFlag(f, f.StringVar, &wordnetDir, "wordnet-dir", "WORDNET_PATH", "/usr/share/wordnet", "WordNet 3.0 database (env WORDNET_PATH)")
	f.StringVar(&workDir, "work-dir", "", "keep the corpus and fastText's model files here (default: a temporary directory, removed)")
	f.BoolVar(&keep, "keep", false, "keep the temporary work directory")
	f.StringVar(&fromVec, "from-vec", "", "skip training: encode this fastText .vec file, trained on the same corpus")
	f.IntVar(&p.Threads, "threads", p.Threads, "fastText threads (1 is reproducible)")
	f.IntVar(&p.Epochs, "epochs", p.Epochs, "fastText epochs")
	f.IntVar(&p.Window, "window", p.Window, "fastText context window (-ws)")
	f.IntVar(&p.Dims, "dims", p.Dims, "vector dimensions (-dim)")
	f.IntVar(&p.MinCount, "min-count", p.MinCount, "words rarer than this in the corpus get no vector")
	return cmd
}
