package web

import (
	"context"
	"testing"

	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/jobs"
)

// BenchmarkQueueRoundTrip is what the facade itself costs: enqueue a
// search job, a worker takes it (2 ms poll interval) and runs a handler
// that does nothing, the result comes back over pub/sub. Compare with
// BenchmarkSearchHybrid in pipeline for the work the queue carries.
func BenchmarkQueueRoundTrip(b *testing.B) {
	env := newQueueEnv(b, Config{})
	env.startWorker(b, func(ctx context.Context, id string, p []byte) (any, error) {
		return api.SearchResponse{RequestID: id, Results: []api.SearchResult{}}, nil
	})
	ctx := context.Background()
	args := jobs.SearchArgs{Query: "grace", Limit: 10}
	b.ResetTimer()
	for b.Loop() {
		if _, err := jobs.Call(ctx, env.q, newRequestID(), args, env.srv.cfg.SearchTimeout); err != nil {
			b.Fatal(err)
		}
	}
}
