package limits_test

import (
	"context"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/web/limits"
)

func TestRateAdmitsExactlyTheBurst(t *testing.T) {
	env := newEnv(t, time.Now())
	engines := []*limits.Engine{env.engine(t), env.engine(t)}
	acct := env.account(t)
	l := limits.Limits{RequestsPerMinute: 5}

	var mu sync.Mutex
	var allowed []limits.Rate
	var refused []limits.Rate
	parallel(40, func(i int) {
		r, err := engines[i%2].Allow(context.Background(), acct, l)
		if r.Allowed != (err == nil) {
			t.Errorf("Allowed = %v with error %v", r.Allowed, err)
		}
		if err != nil {
			appError(t, err, selah.ERATELIMITED)
		}
		mu.Lock()
		defer mu.Unlock()
		if r.Allowed {
			allowed = append(allowed, r)
		} else {
			refused = append(refused, r)
		}
	})
	if len(allowed) != 5 || len(refused) != 35 {
		t.Fatalf("allowed %d, refused %d; want 5 and 35", len(allowed), len(refused))
	}
	var remaining []int
	for _, r := range allowed {
		remaining = append(remaining, r.Remaining)
		if r.Limit != 5 {
			t.Errorf("Limit = %d, want 5", r.Limit)
		}
	}
	sort.Ints(remaining)
	if want := []int{0, 1, 2, 3, 4}; !equal(remaining, want) {
		t.Errorf("Remaining of allowed = %v, want %v", remaining, want)
	}
	for _, r := range refused {
		// After a burst of 5 at 5/min, the next request is 60/5 = 12 s
		// away and the full burst a minute away.
		if r.Remaining != 0 || r.RetryAfter <= 10*time.Second || r.RetryAfter > 12*time.Second {
			t.Errorf("refused: Remaining %d RetryAfter %s, want 0 and ~12s", r.Remaining, r.RetryAfter)
		}
		if r.RetryAfterSeconds() != 12 || r.ResetSeconds() != 60 {
			t.Errorf("refused: RetryAfterSeconds %d ResetSeconds %d, want 12 and 60", r.RetryAfterSeconds(), r.ResetSeconds())
		}
	}

	// Another account is not affected.
	if r, err := engines[0].Allow(context.Background(), env.account(t), l); err != nil || r.Remaining != 4 || r.ResetSeconds() != 12 {
		t.Fatalf("other account: %+v %v; want allowed, 4 remaining, reset in 12 s", r, err)
	}
}

func TestRateSpecialLimits(t *testing.T) {
	env := newEnv(t, time.Now())
	e := env.engine(t)
	acct := env.account(t)
	for range 100 {
		if r, err := e.Allow(context.Background(), acct, limits.Limits{RequestsPerMinute: limits.Unlimited}); err != nil || !r.Allowed {
			t.Fatalf("unlimited: %+v %v", r, err)
		}
	}
	r, err := e.Allow(context.Background(), acct, limits.Limits{RequestsPerMinute: 0})
	if r.Allowed {
		t.Fatal("a limit of zero allowed a request")
	}
	appError(t, err, selah.ERATELIMITED)
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
