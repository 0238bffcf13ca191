package limits_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/web/limits"
)

// TestAdmitIsExactAcrossEngines: parallel requests of one account through
// two engines, none released. Exactly the burst passes the per-minute
// limit; of those exactly the concurrency limit get a slot; a request
// refused by the rate never takes a slot; every answer carries the quota.
func TestAdmitIsExactAcrossEngines(t *testing.T) {
	env := newEnv(t, time.Now())
	engines := []*limits.Engine{env.engine(t), env.engine(t)}
	acct := env.account(t)
	l := limits.Limits{RequestsPerMinute: 6, ConcurrentRequests: 2, AsksPerDay: 10, AsksPerMonth: 100}

	var mu sync.Mutex
	codes := map[string]int{}
	parallel(30, func(i int) {
		a, err := engines[i%2].Admit(context.Background(), acct, l)
		code := "ok"
		var ae *selah.Error
		switch {
		case errors.As(err, &ae):
			code = appError(t, err, ae.Code).Code
		case err != nil:
			t.Error(err)
			return
		}
		if a.Quota != (limits.Quota{Daily: 10, Monthly: 100}) {
			t.Errorf("%s: quota %+v, want 10/100", code, a.Quota)
		}
		if (code == selah.ERATELIMITED) != !a.Rate.Allowed || a.Rate.Limit != 6 {
			t.Errorf("%s: rate %+v", code, a.Rate)
		}
		if (code == "ok") != (a.Slot.ID != "") {
			t.Errorf("%s: slot %+v", code, a.Slot)
		}
		mu.Lock()
		codes[code]++
		mu.Unlock()
	})
	if codes["ok"] != 2 || codes[selah.ECONCURRENCY] != 4 || codes[selah.ERATELIMITED] != 24 {
		t.Fatalf("outcomes %v, want 2 ok, 4 concurrency_limited, 24 rate_limited", codes)
	}
	u, err := engines[0].Usage(context.Background(), acct, l)
	if err != nil {
		t.Fatal(err)
	}
	if u.InFlight != 2 || u.Rate.Remaining != 0 || u.Rate.Allowed || u.Rate.RetryAfterSeconds() != 10 {
		t.Fatalf("usage %+v, want 2 in flight and the rate spent, next request in 10 s", u)
	}
}
