package pipeline

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/selahdev/selah/corpus/wordnet"
)

// Calibrated scores. A fused rank says which verse is best for one query,
// not whether it is any good: the first verse of "which stocks should I
// buy" is first too. So each hit's Score is the probability that it is one
// of the verses a query wants, from a logistic model over evidence that
// means the same for every query:
//
//   - lexNorm: the verse's BM25F score over the query's self-score (the
//     score of an average verse holding each typed word once);
//   - coverage: the share of the query's content words the verse holds,
//     weighted by idf (words the corpus has never seen count as missing,
//     at the weight of its rarest word);
//   - unknown: the share of the query's words the corpus has never seen
//     ("France", "laptop");
//   - router and dense: the verse's score in those sources (0 when absent);
//   - rank: 1/rank in the fused list.
//
// The weights are fitted by FitCalibration on a training split only (the
// old tuning sets, ask.jsonl and the training half of the generated
// WEB→KJV set), by selah eval --calibrate, which prints the literals below.
//
// A second model of the same form gives the query's Confidence: the
// probability that the search found a verse the query wants at all (within
// its first ten), from the first hit's evidence. It needs queries the
// Bible does not answer, which no eval set holds; they are generated from
// WordNet (OffTopicQueries): the definitions of nouns the corpus never
// names ("a portable computer small enough to use in your lap"), made of
// ordinary words but about nothing in Scripture.
type features struct {
	lexNorm, coverage, unknown, router, dense, rank float64
}

func (f features) vec() [nFeatures]float64 {
	return [nFeatures]float64{f.lexNorm, f.coverage, f.unknown, f.router, f.dense, f.rank}
}

const nFeatures = 6

// Calibration is a fitted logistic model: P = σ(Bias + Σ W·x).
type Calibration struct {
	Bias float64
	W    [nFeatures]float64
}

func (c Calibration) prob(f features) float64 {
	z := c.Bias
	for i, x := range f.vec() {
		z += c.W[i] * x
	}
	return 1 / (1 + math.Exp(-z))
}

// calibration (per hit) and confidence (per query) are the shipped
// models, from selah eval --calibrate on the training split (DEVELOPERS.md,
// "Quality"), fitted with the SIF dense source and the Nave's router
// configured as the worker configures them.
var (
	calibration = Calibration{Bias: -5.882, W: [nFeatures]float64{1.149, 1.925, -0.077, 0.145, 1.231, 3.424}}
	confidence  = Calibration{Bias: -1.747, W: [nFeatures]float64{1.497, 3.452, -5.434, 0.518, 0.057, -0.547}}
)

// WeakBelow is the confidence under which a search's best match is
// reported weak and /ask declines: even odds that the search found
// nothing the query wants.
const WeakBelow = 0.5

// probOf is the model's probability for the first of hits, rounded as
// calibrate rounds it; 0 for none.
func (c Calibration) probOf(hits []Hit) float64 {
	if len(hits) == 0 {
		return 0
	}
	return math.Round(c.prob(hits[0].feat)*1e4) / 1e4
}

// calibrate sets each hit's Score from its features, kept non-increasing
// down the list so that the order and the scores agree, and returns the
// query's confidence.
func calibrate(hits []Hit) float64 {
	for i := range hits {
		p := calibration.prob(hits[i].feat)
		if i > 0 {
			p = min(p, hits[i-1].Score)
		}
		hits[i].Score = math.Round(p*1e4) / 1e4
	}
	return confidence.probOf(hits)
}

// calibSample is one hit's features and whether it was wanted.
type calibSample struct {
	x [nFeatures]float64
	y float64
}

// FitCalibration fits both models on the training cases (searched with
// r; webCases with noWeb, the index without the WEB field) and the
// off-topic queries: the per-hit model on the top-10 hits of the cases
// (wanted or not), the confidence model on each query's first hit (did the
// top 10 hold a wanted verse; never, for an off-topic query).
// L2-regularised logistic regression by gradient descent, deterministic.
func FitCalibration(ctx context.Context, r *Retriever, cases []EvalCase, noWeb *Retriever, webCases []EvalCase, offTopic []string) (perHit, perQuery Calibration, err error) {
	var hitSamples, querySamples []calibSample
	collect := func(r *Retriever, cases []EvalCase) error {
		for _, c := range cases {
			res, err := r.Search(ctx, c.Query, 10)
			if err != nil {
				return fmt.Errorf("pipeline: calibrate %q: %w", c.Query, err)
			}
			found := 0.0
			for _, h := range res.Hits {
				y := 0.0
				if slices.Contains(c.Hits, h.Verse.ID) {
					y, found = 1, 1
				}
				hitSamples = append(hitSamples, calibSample{x: h.feat.vec(), y: y})
			}
			if len(res.Hits) > 0 {
				querySamples = append(querySamples, calibSample{x: res.Hits[0].feat.vec(), y: found})
			}
		}
		return nil
	}
	if err := collect(r, cases); err != nil {
		return perHit, perQuery, err
	}
	if err := collect(noWeb, webCases); err != nil {
		return perHit, perQuery, err
	}
	for _, q := range offTopic {
		res, err := r.Search(ctx, q, 10)
		if err != nil {
			return perHit, perQuery, fmt.Errorf("pipeline: calibrate %q: %w", q, err)
		}
		if len(res.Hits) > 0 {
			querySamples = append(querySamples, calibSample{x: res.Hits[0].feat.vec(), y: 0})
		}
	}
	if len(hitSamples) == 0 || len(querySamples) == 0 {
		return perHit, perQuery, fmt.Errorf("pipeline: calibrate: no samples")
	}
	return fitLogistic(hitSamples, 3000, 0.5, 1e-3), fitLogistic(querySamples, 3000, 0.5, 1e-3), nil
}

// OffTopicQueries returns n definitions (WordNet glosses, examples cut)
// of noun senses none of whose words the corpus knows: subjects the Bible
// does not speak of, drawn at random with a fixed seed.
func (r *Retriever) OffTopicQueries(wn *wordnet.WordNet, n int, seed uint64) []string {
	var pool []string
	wn.EachSynset(func(s *wordnet.Synset) error {
		if s.POS != wordnet.Noun {
			return nil
		}
		for _, w := range s.Words {
			known := false
			r.lex.an.terms(w, func(t string) {
				if _, ok := r.lex.terms[t]; ok {
					known = true
				}
			})
			if known {
				return nil
			}
		}
		def, _, _ := strings.Cut(s.Gloss, ";")
		if def = strings.TrimSpace(def); strings.Count(def, " ") >= 3 {
			pool = append(pool, def)
		}
		return nil
	})
	rng := rand.New(rand.NewPCG(seed, seed^0x0ff))
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	return pool[:min(n, len(pool))]
}

func fitLogistic(samples []calibSample, iters int, rate, l2 float64) Calibration {
	xs := make([][]float64, len(samples))
	ys := make([]float64, len(samples))
	for i := range samples {
		xs[i], ys[i] = samples[i].x[:], samples[i].y
	}
	c := Calibration{}
	var w []float64
	c.Bias, w = logistic(xs, ys, nil, iters, rate, l2)
	copy(c.W[:], w)
	return c
}

// logistic fits P(y=1) = σ(bias + w·x) to the samples (xs[i], ys[i]),
// each weighing weights[i] (nil: 1) in the loss, by L2-regularised
// gradient descent from zero: deterministic. The weights come out rounded
// to 1e-3, as they are written into the code.
func logistic(xs [][]float64, ys, weights []float64, iters int, rate, l2 float64) (bias float64, w []float64) {
	if len(xs) == 0 {
		return 0, nil
	}
	w = make([]float64, len(xs[0]))
	gw := make([]float64, len(w))
	n := float64(len(xs))
	for range iters {
		var gb float64
		clear(gw)
		for s, x := range xs {
			z := bias
			for i, v := range x {
				z += w[i] * v
			}
			d := 1/(1+math.Exp(-z)) - ys[s]
			if weights != nil {
				d *= weights[s]
			}
			gb += d
			for i, v := range x {
				gw[i] += d * v
			}
		}
		bias -= rate * gb / n
		for i := range w {
			w[i] -= rate * (gw[i]/n + l2*w[i])
		}
	}
	bias = math.Round(bias*1e3) / 1e3
	for i := range w {
		w[i] = math.Round(w[i]*1e3) / 1e3
	}
	return bias, w
}

// Literal prints c as Go source for the calibration variable.
func (c Calibration) Literal() string {
	return fmt.Sprintf("Calibration{Bias: %g, W: [nFeatures]float64{%g, %g, %g, %g, %g, %g}}",
		c.Bias, c.W[0], c.W[1], c.W[2], c.W[3], c.W[4], c.W[5])
}
