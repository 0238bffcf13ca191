package pipeline

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/selahdev/selah/corpus"
)

// Kinds of evaluation query.
const (
	KindQuote      = "quote"      // close to the KJV wording
	KindParaphrase = "paraphrase" // a famous verse in modern words
	KindTopical    = "topical"    // a question or topic with several good answers
)

// EvalCase is one query with the verses that count as finding it.
type EvalCase struct {
	Query string
	Kind  string
	Hits  []corpus.VerseID
}

type evalLine struct {
	Query string   `json:"query"`
	Kind  string   `json:"kind"`
	Hits  []string `json:"hits"`
}

//go:embed testdata/eval/search.jsonl
var defaultEval []byte

// DefaultEvalCases returns the built-in evaluation set
// (testdata/eval/search.jsonl).
func DefaultEvalCases() ([]EvalCase, error) {
	return ReadEvalCases(bytes.NewReader(defaultEval))
}

// ReadEvalCases reads JSON lines {"query", "kind", "hits": ["John 3:16", ...]}.
// A hit may be a range ("Matthew 5:3-12"): every verse in it counts.
func ReadEvalCases(r io.Reader) ([]EvalCase, error) {
	return readCases(r, "eval", func(l evalLine) (EvalCase, error) {
		if l.Query == "" || len(l.Hits) == 0 {
			return EvalCase{}, fmt.Errorf("needs a query and hits")
		}
		hits, err := expandRefs(l.Hits)
		return EvalCase{Query: l.Query, Kind: l.Kind, Hits: hits}, err
	})
}

// readCases reads a JSON-lines test set: one case per line of type L,
// turned into a C by parse; blank lines and # comments are skipped.
func readCases[L, C any](r io.Reader, what string, parse func(L) (C, error)) ([]C, error) {
	var out []C
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		var l L
		if err := json.Unmarshal(line, &l); err != nil {
			return nil, fmt.Errorf("pipeline: %s line %d: %w", what, n, err)
		}
		c, err := parse(l)
		if err != nil {
			return nil, fmt.Errorf("pipeline: %s line %d: %w", what, n, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("pipeline: read %s cases: %w", what, err)
	}
	return out, nil
}

// expandRefs lists the verses of references like "Matthew 5:3-12".
func expandRefs(refs []string) ([]corpus.VerseID, error) {
	var ids []corpus.VerseID
	for _, s := range refs {
		ref, err := corpus.ParseReference(s)
		if err != nil {
			return nil, err
		}
		ids = append(ids, ref.VerseIDs()...)
	}
	return ids, nil
}

// EvalMetrics are the scores of one mode over a set of cases: the share of
// cases with a hit at rank 1 and within the top k, and the mean reciprocal
// rank of the first hit (0 when none is in the top k).
type EvalMetrics struct {
	Cases  int
	HitAt1 float64
	HitAtK float64
	MRR    float64
}

func (m *EvalMetrics) add(rank int) {
	m.Cases++
	if rank == 1 {
		m.HitAt1++
	}
	if rank > 0 {
		m.HitAtK++
		m.MRR += 1 / float64(rank)
	}
}

func (m *EvalMetrics) finish() {
	if m.Cases > 0 {
		n := float64(m.Cases)
		m.HitAt1, m.HitAtK, m.MRR = m.HitAt1/n, m.HitAtK/n, m.MRR/n
	}
}

// EvalMiss is a case that found nothing within the top k.
type EvalMiss struct {
	Query string
	Kind  string
	Top   []corpus.VerseID // what was found instead, best first
}

// ModeReport is one mode's scores overall and per kind, and its latency.
type ModeReport struct {
	Mode        Mode
	Overall     EvalMetrics
	ByKind      map[string]EvalMetrics
	MeanLatency time.Duration
	Misses      []EvalMiss
}

// EvalReport is the outcome of Evaluate.
type EvalReport struct {
	K        int
	Embedder string
	Modes    []ModeReport
}

// Mode returns the report of mode m.
func (r EvalReport) Mode(m Mode) (ModeReport, bool) {
	for _, mr := range r.Modes {
		if mr.Mode == m {
			return mr, true
		}
	}
	return ModeReport{}, false
}

// rankOf is the 1-based rank of the first wanted verse in got, or 0.
func rankOf(got []corpus.VerseID, want []corpus.VerseID) int {
	for i, id := range got {
		if slices.Contains(want, id) {
			return i + 1
		}
	}
	return 0
}

// Evaluate runs every case in every mode (full text, vector, hybrid) and
// scores the top k.
func Evaluate(ctx context.Context, r *Retriever, cases []EvalCase, k int) (EvalReport, error) {
	rep := EvalReport{K: k, Embedder: r.EmbedderName()}
	for _, mode := range []Mode{ModeFullText, ModeVector, ModeHybrid} {
		mr := ModeReport{Mode: mode, ByKind: map[string]EvalMetrics{}}
		var spent time.Duration
		for _, c := range cases {
			start := time.Now()
			hits, err := r.Search(ctx, c.Query, k, mode)
			if err != nil {
				return rep, fmt.Errorf("pipeline: evaluate %s %q: %w", mode, c.Query, err)
			}
			spent += time.Since(start)
			got := make([]corpus.VerseID, len(hits))
			for i, h := range hits {
				got[i] = h.Verse.ID
			}
			rank := rankOf(got, c.Hits)
			mr.Overall.add(rank)
			km := mr.ByKind[c.Kind]
			km.add(rank)
			mr.ByKind[c.Kind] = km
			if rank == 0 {
				mr.Misses = append(mr.Misses, EvalMiss{Query: c.Query, Kind: c.Kind, Top: got})
			}
		}
		mr.Overall.finish()
		for kind, km := range mr.ByKind {
			km.finish()
			mr.ByKind[kind] = km
		}
		if len(cases) > 0 {
			mr.MeanLatency = spent / time.Duration(len(cases))
		}
		rep.Modes = append(rep.Modes, mr)
	}
	return rep, nil
}

// WriteTable prints the report as a table: one row per mode and kind.
func (r EvalReport) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "mode\tkind\tcases\thit@1\thit@%d\tMRR\tmean latency\t\n", r.K)
	for _, mr := range r.Modes {
		kinds := make([]string, 0, len(mr.ByKind))
		for k := range mr.ByKind {
			kinds = append(kinds, k)
		}
		slices.Sort(kinds)
		row := func(kind string, m EvalMetrics, lat string) {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.3f\t%.3f\t%.3f\t%s\t\n", mr.Mode, kind, m.Cases, m.HitAt1, m.HitAtK, m.MRR, lat)
		}
		for _, k := range kinds {
			row(k, mr.ByKind[k], "")
		}
		row("all", mr.Overall, mr.MeanLatency.Round(10*time.Microsecond).String())
	}
	return tw.Flush()
}
