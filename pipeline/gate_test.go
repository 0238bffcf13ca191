package pipeline_test

import (
	"math"
	"testing"
	"time"

	"github.com/selahdev/selah/pipeline"
)

// TestThemeGateFit: the shipped theme gate is what selah eval --calibrate
// fits on the ask tuning sets, so the literal in gate.go is reproducible
// from the data; a change of retrieval that moves it must refit it.
func TestThemeGateFit(t *testing.T) {
	t.Parallel()
	b := setup(t)
	cases, err := pipeline.AskTuningCases()
	if err != nil {
		t.Fatal(err)
	}
	g, n, err := pipeline.FitThemeGate(t.Context(), b.answerer(nil), cases)
	if err != nil {
		t.Fatal(err)
	}
	if want := pipeline.ShippedThemeGate(); g != want {
		t.Errorf("fitted on %d questions: %s, shipped %s", n, g.Literal(), want.Literal())
	}
	for _, name := range []string{"ask2", "ask3", "ask4", "ask5"} {
		if _, err := pipeline.AskSetCases(name); err != nil {
			t.Fatal(err)
		}
		for _, tuning := range pipeline.AskTuningSets {
			if tuning == name {
				t.Errorf("held-out %s is a tuning set", name)
			}
		}
	}
}

// TestLogistic: the fitter separates a separable set, weighs samples as
// told, and gives the same model every time.
func TestLogistic(t *testing.T) {
	t.Parallel()
	xs := [][]float64{{0}, {0.1}, {0.2}, {0.8}, {0.9}, {1}}
	ys := []float64{0, 0, 0, 1, 1, 1}
	bias, w := pipeline.Logistic(xs, ys, nil, 2000)
	if w[0] <= 0 || bias >= 0 {
		t.Fatalf("bias %g, w %v: want a rising model", bias, w)
	}
	for i, x := range xs {
		if p := 1 / (1 + math.Exp(-(bias + w[0]*x[0]))); (p >= 0.5) != (ys[i] == 1) {
			t.Errorf("x %g: p %.2f, want class %g", x[0], p, ys[i])
		}
	}
	if b2, w2 := pipeline.Logistic(xs, ys, nil, 2000); b2 != bias || w2[0] != w[0] {
		t.Errorf("not deterministic: %g %v then %g %v", bias, w, b2, w2)
	}
	// Weighing the negatives ten times moves the boundary toward the
	// positives: the bias falls.
	heavy := []float64{10, 10, 10, 1, 1, 1}
	if hb, _ := pipeline.Logistic(xs, ys, heavy, 2000); hb >= bias {
		t.Errorf("weighted bias %g, unweighted %g: want lower", hb, bias)
	}
}

// BenchmarkAnswer measures /ask's offline answer in process (retrieval,
// the router, the theme gate, the composer and its grounding, the verses
// read from Postgres) over the ask tuning sets' questions, and reports the
// latency percentiles.
func BenchmarkAnswer(b *testing.B) {
	bb := setup(b)
	cases, err := pipeline.AskTuningCases()
	if err != nil {
		b.Fatal(err)
	}
	qs := make([]string, len(cases))
	for i, c := range cases {
		qs[i] = c.Question
	}
	a := bb.answerer(nil)
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		if _, err := a.Answer(bb.ctx, qs[i%len(qs)], 3, pipeline.AnswerOptions{Extractive: true}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	reportLatency(b, lat)
}
