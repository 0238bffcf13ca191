package main

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/selahdev/selah/store"
)

// TestScaleOutLimitsExact: two `selah web` and two `selah worker`
// processes on one Postgres and one Redis (issue 17, the 2×2 topology).
// Requests sent all at once and spread over the two web processes meet
// the same limits as one process would give: exactly the per-minute burst
// passes the rate limit, and exactly the daily Ask quota is answered and
// charged, in Redis and in Postgres.
func TestScaleOutLimitsExact(t *testing.T) {
	s := newStack(t)
	ctx := context.Background()
	webs := []string{s.base(), "http://" + freeAddr(t)}
	startProc(t, "web1", s.env, "web")
	startProc(t, "web2", append(s.env, "ADDR="+webs[1][len("http://"):], "METRICS_ADDR="+freeAddr(t)), "web")
	for i := range 2 {
		startProc(t, fmt.Sprintf("worker%d", i+1), append(s.env, "METRICS_ADDR="+freeAddr(t)), "worker")
	}
	for _, w := range webs {
		waitStatus(t, w, "/readyz", "", 200, startWithin)
	}

	// spread sends n calls at once, alternating between the web
	// processes, and counts the outcomes by error code ("ok": 200).
	spread := func(n int, method, path, key, body string) (map[string]int, []httpResult) {
		var mu sync.Mutex
		counts := map[string]int{}
		var results []httpResult
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				r := call(t, method, webs[i%2], path, key, body)
				code := r.code()
				if r.Status == 200 {
					code = "ok"
				} else if code == "" {
					code = fmt.Sprintf("status %d", r.Status)
				}
				mu.Lock()
				defer mu.Unlock()
				counts[code]++
				results = append(results, r)
			})
		}
		close(start)
		wg.Wait()
		return counts, results
	}

	t.Run("per-minute limit", func(t *testing.T) {
		// The free plan: 5 a minute, 1 in flight. A request that passes the
		// rate limit is served or, while another holds the one slot,
		// concurrency_limited; all others are rate_limited.
		key := s.account(t, store.PlanFree, 0)
		began := time.Now()
		counts, results := spread(25, "GET", john316, key, "")
		// The burst refills one request every 12 s: had sending taken
		// that long, one more could rightly pass.
		refilled := int(time.Since(began) / (12 * time.Second))
		passed := counts["ok"] + counts["concurrency_limited"]
		if passed < 5 || passed > 5+refilled || counts["rate_limited"] != 25-passed || counts["ok"] == 0 {
			t.Fatalf("outcomes %v: want exactly 5 through the rate limit (+%d refilled), the rest rate_limited", counts, refilled)
		}
		for _, r := range results {
			if r.code() == "rate_limited" && r.Header.Get("Retry-After") == "" {
				t.Fatalf("rate_limited without Retry-After: %s", r.Raw)
			}
		}
	})

	t.Run("daily Ask quota", func(t *testing.T) {
		// A plan of 6 Asks a day with room for every request at once, so
		// only the quota refuses.
		plan := store.Plan{Name: store.PlanDeveloper, RequestsPerMinute: 1000, ConcurrentRequests: 50, AsksPerDay: 6,
			AsksPerMonth: 100, MaxActiveKeys: 10}
		if err := s.st.UpdatePlanLimits(ctx, plan); err != nil {
			t.Fatal(err)
		}
		key, acct := s.accountWithID(t, store.PlanDeveloper, 0)
		counts, results := spread(16, "POST", "/api/v1/ask", key, `{"question":"How can I stop worrying?","maxReferences":2}`)
		if counts["ok"] != 6 || counts["quota_exceeded"] != 10 {
			t.Fatalf("outcomes %v: want exactly 6 answered and 10 quota_exceeded", counts)
		}
		for _, r := range results {
			if r.code() == "quota_exceeded" && quotaLeft(t, r) != 0 {
				t.Fatalf("quota_exceeded with %s left", r.Header.Get("X-Quota-Daily-Remaining"))
			}
		}
		if d, m, err := s.st.AskCounts(ctx, acct, time.Now()); err != nil || d != 6 || m != 6 {
			t.Fatalf("Postgres counts %d/%d (%v), want 6/6", d, m, err)
		}
		// Either web process now refuses the next Ask.
		for _, w := range webs {
			r := call(t, "POST", w, "/api/v1/ask", key, `{"question":"What is grace?"}`)
			if r.code() != "quota_exceeded" {
				t.Fatalf("%s: %d %s, want quota_exceeded", w, r.Status, r.Raw)
			}
		}
	})
}
