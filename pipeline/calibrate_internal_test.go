package pipeline

import "testing"

// TestQueryEvidence: the confidence reads the best word evidence of the
// first evidenceDepth hits, and the rest of its features from the first.
func TestQueryEvidence(t *testing.T) {
	t.Parallel()
	hits := make([]Hit, 5)
	hits[0].feat = features{dense: 0.9, rank: 1}
	hits[1].feat = features{coverage: 0.5, lexNorm: 0.4}
	hits[2].feat = features{coverage: 1, lexNorm: 0.2}
	hits[3].feat = features{coverage: 1, lexNorm: 3} // past evidenceDepth
	got := queryEvidence(hits)
	want := features{coverage: 1, lexNorm: 0.4, dense: 0.9, rank: 1}
	if got != want {
		t.Errorf("queryEvidence = %+v, want %+v", got, want)
	}
	if got := queryEvidence(hits[:1]); got != hits[0].feat {
		t.Errorf("one hit: %+v, want its own features", got)
	}
	// A first hit without the query's words no longer sinks the
	// confidence when the second holds them all.
	if lo, hi := confidence.prob(hits[0].feat), confidence.prob(got); hi <= lo {
		t.Errorf("confidence %v with the second hit's evidence, %v without", hi, lo)
	}
}
