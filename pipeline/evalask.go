package pipeline

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/selahdev/selah/corpus"
)

// AskCase is one everyday question with the verses that count as a good
// reference for it.
type AskCase struct {
	Question string
	Expect   []corpus.VerseID
}

type askLine struct {
	Question string   `json:"question"`
	Expect   []string `json:"expect"`
}

//go:embed testdata/eval/ask.jsonl
var defaultAsk []byte

// DefaultAskCases returns the built-in question set
// (testdata/eval/ask.jsonl).
func DefaultAskCases() ([]AskCase, error) {
	return ReadAskCases(bytes.NewReader(defaultAsk))
}

// ReadAskCases reads JSON lines {"question", "expect": ["John 3:16", ...]}.
// An expected reference may be a range ("Matthew 5:3-12"): every verse in
// it counts.
func ReadAskCases(r io.Reader) ([]AskCase, error) {
	return readCases(r, "ask case", func(l askLine) (AskCase, error) {
		if strings.TrimSpace(l.Question) == "" || len(l.Expect) == 0 {
			return AskCase{}, fmt.Errorf("needs a question and expected verses")
		}
		expect, err := expandRefs(l.Expect)
		return AskCase{Question: l.Question, Expect: expect}, err
	})
}

// AskReport is the outcome of EvaluateAsk.
type AskReport struct {
	Generator string // the answerer's configured generator
	MaxRefs   int
	Cases     int
	// HitRate is the share of cases whose references include an expected
	// verse.
	HitRate float64
	// References counts the references of all answers; GroundedShare is
	// the share of them that are grounded: every verse a retrieved
	// candidate of its answer and the text the database's. It must be 1.
	References    int
	GroundedShare float64
	// NoAnswer counts answers that found no relevant passage; Fallbacks
	// those where the extractive answer replaced the generator's.
	NoAnswer    int
	Fallbacks   int
	MeanLatency time.Duration
	Misses      []AskMiss
	Ungrounded  []string // references that failed the check, with their question
}

// AskMiss is a case whose answer cited no expected verse.
type AskMiss struct {
	Question string
	Got      []string // the answer's references; empty for no answer
}

// EvaluateAsk answers every case with at most maxRefs references and
// scores the answers: hit rate, grounding of every reference (checked
// against the retrieved candidates and a fresh read of the database), and
// how often no passage was found.
func EvaluateAsk(ctx context.Context, a *Answerer, cases []AskCase, maxRefs int) (AskReport, error) {
	rep := AskReport{Generator: a.GeneratorName(), MaxRefs: maxRefs, Cases: len(cases)}
	var spent time.Duration
	hits, grounded := 0, 0
	for _, c := range cases {
		start := time.Now()
		ans, err := a.Answer(ctx, c.Question, maxRefs, AnswerOptions{})
		if err != nil {
			return rep, fmt.Errorf("pipeline: evaluate ask %q: %w", c.Question, err)
		}
		spent += time.Since(start)
		if ans.NoPassage {
			rep.NoAnswer++
		}
		if ans.Fallback {
			rep.Fallbacks++
		}
		hit := false
		var got []string
		for _, ref := range ans.References {
			got = append(got, ref.Reference)
			ids := ref.VerseIDs()
			ok, err := a.groundedReference(ctx, ref, ids, ans.Retrieved)
			if err != nil {
				return rep, err
			}
			rep.References++
			if ok {
				grounded++
			} else {
				rep.Ungrounded = append(rep.Ungrounded, c.Question+": "+ref.Reference)
			}
			hit = hit || slices.ContainsFunc(ids, func(id corpus.VerseID) bool { return slices.Contains(c.Expect, id) })
		}
		if hit {
			hits++
		} else {
			rep.Misses = append(rep.Misses, AskMiss{Question: c.Question, Got: got})
		}
	}
	if len(cases) > 0 {
		rep.HitRate = float64(hits) / float64(len(cases))
		rep.MeanLatency = spent / time.Duration(len(cases))
	}
	rep.GroundedShare = 1
	if rep.References > 0 {
		rep.GroundedShare = float64(grounded) / float64(rep.References)
	}
	return rep, nil
}

// groundedReference checks one reference independently of how the answer
// was built: its verses were retrieved, and its text is the database's.
func (a *Answerer) groundedReference(ctx context.Context, ref Reference, ids, retrieved []corpus.VerseID) (bool, error) {
	if len(ids) == 0 || ref.Translation != "KJV" {
		return false, nil
	}
	for _, id := range ids {
		if !slices.Contains(retrieved, id) {
			return false, nil
		}
	}
	verses, err := a.st.VersesByID(ctx, ids)
	if err != nil {
		return false, fmt.Errorf("pipeline: evaluate ask: %w", err)
	}
	if len(verses) != len(ids) {
		return false, nil
	}
	texts := make([]string, len(verses))
	for i, v := range verses {
		texts[i] = strings.TrimSpace(v.Text)
	}
	return ref.Text == strings.Join(texts, " "), nil
}

// WriteTable prints the report as a table, then the misses.
func (r AskReport) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "generator\tmax refs\tcases\thit rate\treferences\tgrounded\tno answer\tfallbacks\tmean latency\t\n")
	fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%d\t%.3f\t%d\t%d\t%s\t\n", r.Generator, r.MaxRefs, r.Cases, r.HitRate,
		r.References, r.GroundedShare, r.NoAnswer, r.Fallbacks, r.MeanLatency.Round(10*time.Microsecond))
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, u := range r.Ungrounded {
		if _, err := fmt.Fprintf(w, "ungrounded: %s\n", u); err != nil {
			return err
		}
	}
	return nil
}

// WriteMisses lists the questions whose answer cited no expected verse.
func (r AskReport) WriteMisses(w io.Writer) error {
	for _, m := range r.Misses {
		got := strings.Join(m.Got, "; ")
		if got == "" {
			got = "(no answer)"
		}
		if _, err := fmt.Fprintf(w, "miss: %q → %s\n", m.Question, got); err != nil {
			return err
		}
	}
	return nil
}
