package main

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
)

// evalAskReferences is --max-references's default: the Ask evaluation's
// figures have been measured at three references per answer since it was
// written, so its default stays there to keep them comparable, although
// the API's default is selah.DefaultMaxReferences.
const evalAskReferences = 3

func newEvalCmd(cfg *config) *cobra.Command {
	var (
		file      string
		set       string
		k         int
		misses    bool
		ask       bool
		calibrate bool
		maxRefs   int
		noGlosses bool
		noExpand  bool
		rrfK      int
		answers   bool
	)
	cmd := &cobra.Command{
		Use:   "eval [--set name | --file cases.jsonl] [--k 10] [--misses] [--calibrate] [--ask]",
		Short: "Measure retrieval: hit@1, hit@k and MRR per source and fused, by kind of query",
		Long: `eval measures retrieval against the ingested corpus, each source alone
(lexical; dense and router when configured) and fused as the API uses them,
printing hit@1, hit@k and MRR overall and by kind of query. The sets:

  holdout2,     written independently and never tuned on: the figures a
  holdout3      user can expect (their misses are never printed)
  web-kjv       generated: 1,000 random verses (fixed seed), the WEB wording
                as query and the KJV verse as answer, searched in an index
                without the WEB field; its test half
  search,       the tuning sets retrieval was developed against
  holdout

By default every set is run; --set runs one (also web-kjv-train), --file
a JSON-lines set of your own.

--calibrate fits the score calibration on the training split (the tuning
sets, ask.jsonl and the training half of web-kjv) and prints it.

With --ask it measures answers instead, on the ask set
(pipeline/testdata/eval/ask2.jsonl, read from the working directory, or
--file) and on the old built-in set the offline composer was tuned on
(labelled "tuning set"): the share of answers citing an expected verse,
overall and by kind (person, event, doctrine, teaching, practical), the share
of decline questions declined, the share of answers grounded (every
reference a retrieved verse with the database's text, every sentence naming
a cited reference; must be 100%), and the share with at least one sentence
of their own (no quotation, four words or more besides references). By
kind it also says how near the theme path came: how many answerable
questions weighed a Nave's theme ("themed"), how many were answered from
a theme whose first max-references verses of teaching hold an expected
verse ("theme holds"), how many reach such a theme among all they weigh,
chosen or not ("best theme holds"), and the hit rate had each of those
been answered from it ("ceiling": what a better choice among the themes
the sources reach could give, and no more), and how many answerable
questions were given an expected verse among the generator's candidates
("candidates hold": what any generator, a model's too, could cite). The
generator is the configured one (SELAH_GENERATOR).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cfg.logger()
			st, err := cfg.openStore(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			r, err := newRetriever(ctx, st)
			if err != nil {
				return err
			}
			if noGlosses {
				r = r.With(pipeline.LexicalOptions{NoGlosses: true})
			}
			if noExpand {
				r.Expand = nil
			}
			r.RRFK = rrfK
			if ask {
				return evalAsk(cmd, st, r, file, maxRefs, misses, answers)
			}
			if calibrate {
				return evalCalibrate(cmd, st, r)
			}
			out := cmd.OutOrStdout()
			type run struct {
				title string
				cases []pipeline.EvalCase
				r     *pipeline.Retriever
				quiet bool // never print its misses
			}
			var runs []run
			noWeb := r.WithoutWeb
			webTrain, webTest := r.WebKJVCases(pipeline.WebKJVSize, pipeline.WebKJVSeed)
			if noGlosses {
				noWeb = func() *pipeline.Retriever { return r.With(pipeline.LexicalOptions{NoWeb: true, NoGlosses: true}) }
			}
			named := func(name string) (run, error) {
				switch name {
				case pipeline.KindWebKJV:
					return run{title: "web-kjv (generated, test half; WEB field excluded)", cases: webTest, r: noWeb()}, nil
				case pipeline.KindWebKJV + "-train":
					return run{title: "web-kjv-train (generated, training half; WEB field excluded)", cases: webTrain, r: noWeb()}, nil
				}
				cases, err := pipeline.EvalSetCases(name)
				title := name + " (tuning set)"
				if pipeline.HeldOut(name) {
					title = name + " (held out, never tuned on)"
				}
				return run{title: title, cases: cases, r: r, quiet: pipeline.HeldOut(name)}, err
			}
			switch {
			case file != "":
				f, err := os.Open(file)
				if err != nil {
					return err
				}
				defer f.Close()
				cases, err := pipeline.ReadEvalCases(f)
				if err != nil {
					return err
				}
				runs = append(runs, run{title: file, cases: cases, r: r, quiet: pipeline.HeldOut(file)})
			case set != "":
				x, err := named(set)
				if err != nil {
					return err
				}
				runs = append(runs, x)
			default:
				for _, name := range append(append(slices.Clone(pipeline.HoldoutSets), pipeline.KindWebKJV), pipeline.TuningSets...) {
					x, err := named(name)
					if errors.Is(err, fs.ErrNotExist) {
						fmt.Fprintf(out, "%s: not in this build\n\n", name)
						continue
					}
					if err != nil {
						return err
					}
					runs = append(runs, x)
				}
			}
			for _, x := range runs {
				rep, err := pipeline.Evaluate(ctx, x.r, x.cases, k)
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "%s: %d queries, embedder %s, top %d\n", x.title, len(x.cases), rep.Embedder, k)
				if err := rep.WriteTable(out); err != nil {
					return err
				}
				fmt.Fprintln(out)
				if misses && !x.quiet {
					for _, sr := range rep.Sources {
						for _, m := range sr.Misses {
							fmt.Fprintf(out, "miss %-8s %-10s %q -> %v\n", sr.Source, m.Kind, m.Query, m.Top[:min(3, len(m.Top))])
						}
					}
					fmt.Fprintln(out)
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "file", "", "JSON-lines test set instead of the built-in ones")
	cmd.Flags().StringVar(&set, "set", "", "one built-in set: holdout2, holdout3, web-kjv, web-kjv-train, search, holdout or a tuning set of pipeline/testdata/eval")
	cmd.Flags().IntVar(&k, "k", 10, "how many results count")
	cmd.Flags().BoolVar(&misses, "misses", false, "list the queries each source missed (never for the held-out sets)")
	cmd.Flags().BoolVar(&calibrate, "calibrate", false, "fit the score calibration on the training split and print it")
	cmd.Flags().BoolVar(&noGlosses, "no-glosses", false, "leave the Strong's gloss field out of the index (to measure it)")
	cmd.Flags().IntVar(&rrfK, "rrf-k", 0, "the fusion's constant k (0: the default), to measure it")
	cmd.Flags().BoolVar(&noExpand, "no-expansion", false, "no WordNet query expansion (to measure it)")
	cmd.Flags().BoolVar(&ask, "ask", false, "evaluate answers (POST /ask) instead of retrieval")
	cmd.Flags().IntVar(&maxRefs, "max-references", evalAskReferences, "with --ask: references per answer")
	cmd.Flags().BoolVar(&answers, "answers", false, "with --ask: print every answer as returned")
	return cmd
}

// evalCalibrate fits the score calibration on the training split and the
// theme gate on the ask tuning sets, and prints them as Go literals.
func evalCalibrate(cmd *cobra.Command, st *store.Store, r *pipeline.Retriever) error {
	ctx := cmd.Context()
	var train []pipeline.EvalCase
	for _, name := range pipeline.TuningSets {
		cases, err := pipeline.EvalSetCases(name)
		if err != nil {
			return err
		}
		train = append(train, cases...)
	}
	askCases, err := pipeline.DefaultAskCases()
	if err != nil {
		return err
	}
	for _, c := range askCases {
		train = append(train, pipeline.EvalCase{Query: c.Question, Kind: "ask", Hits: c.Expect})
	}
	webTrain, _ := r.WebKJVCases(pipeline.WebKJVSize, pipeline.WebKJVSeed)
	wn, err := pipeline.OpenWordNet(cmp.Or(os.Getenv("SELAH_WORDNET_DIR"), pipeline.DefaultWordNetDir))
	if err != nil {
		return err
	}
	offTopic := r.OffTopicQueries(wn, pipeline.OffTopicSize, pipeline.OffTopicSeed)
	perHit, perQuery, err := pipeline.FitCalibration(ctx, r, train, r.WithoutWeb(), webTrain, offTopic)
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "calibration = %s\nconfidence  = %s\n", perHit.Literal(), perQuery.Literal())
	// The theme gate weighs questions with the shipped search confidence:
	// fit the two above first, and ship them, before refitting it.
	asks, err := pipeline.AskTuningCases()
	if err != nil {
		return err
	}
	gate, n, err := pipeline.FitThemeGate(ctx, pipeline.NewAnswerer(st, r, nil), asks)
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "themeGate   = %s (%d questions)\n", gate.Literal(), n)
	return nil
}

// askSet is the ask evaluation set read from the working directory when
// no --file is given.
const askSet = "pipeline/testdata/eval/ask2.jsonl"

func evalAsk(cmd *cobra.Command, st *store.Store, r *pipeline.Retriever, file string, maxRefs int, misses, answers bool) error {
	chatCfg, err := pipeline.ChatConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	g, err := pipeline.NewGenerator(chatCfg)
	if err != nil {
		return err
	}
	a := pipeline.NewAnswerer(st, r, g)
	type set struct {
		label string
		cases []pipeline.AskCase
	}
	var sets []set
	if file == "" {
		if _, err := os.Stat(askSet); err == nil {
			file = askSet
		}
	}
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		cases, err := pipeline.ReadAskCases(f)
		f.Close()
		if err != nil {
			return err
		}
		sets = append(sets, set{file, cases})
	}
	tuning, err := pipeline.DefaultAskCases()
	if err != nil {
		return err
	}
	sets = append(sets, set{"tuning set (built-in ask.jsonl, the offline composer was tuned on it)", tuning})
	out := cmd.OutOrStdout()
	bad := 0
	for i, s := range sets {
		if i > 0 {
			fmt.Fprintln(out)
		}
		fmt.Fprintf(out, "%s: %d questions\n", s.label, len(s.cases))
		rep, err := pipeline.EvaluateAsk(cmd.Context(), a, s.cases, maxRefs)
		if err != nil {
			return err
		}
		if err := rep.WriteTable(out); err != nil {
			return err
		}
		quiet := pipeline.HeldOut(s.label)
		if quiet && (misses || answers) {
			fmt.Fprintln(out, "(a held-out set: its misses and answers are not printed)")
		}
		if misses && !quiet {
			if err := rep.WriteMisses(out); err != nil {
				return err
			}
		}
		if answers && !quiet {
			if err := rep.WriteAnswers(out); err != nil {
				return err
			}
		}
		bad += len(rep.Ungrounded)
	}
	if bad > 0 {
		return fmt.Errorf("eval: %d ungrounded references or sentences", bad)
	}
	return nil
}
