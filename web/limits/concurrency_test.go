package limits_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/web/limits"
)

func TestConcurrencyNeverExceedsLimit(t *testing.T) {
	env := newEnv(t, time.Now())
	engines := []*limits.Engine{env.engine(t), env.engine(t)}
	acct := env.account(t)
	l := limits.Limits{ConcurrentRequests: 3}

	var inFlight, peak, admitted, refused atomic.Int64
	parallel(50, func(i int) {
		e := engines[i%2]
		for range 10 {
			slot, err := e.Acquire(context.Background(), acct, l)
			if err != nil {
				appError(t, err, selah.ECONCURRENCY)
				refused.Add(1)
				continue
			}
			admitted.Add(1)
			n := inFlight.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			if slot.InFlight > 3 {
				t.Errorf("slot reports %d in flight", slot.InFlight)
			}
			time.Sleep(time.Millisecond)
			inFlight.Add(-1)
			if err := e.ReleaseSlot(context.Background(), slot); err != nil {
				t.Error(err)
			}
		}
	})
	t.Logf("admitted %d, refused %d, peak %d", admitted.Load(), refused.Load(), peak.Load())
	if peak.Load() > 3 {
		t.Fatalf("%d requests in flight at once, limit 3", peak.Load())
	}
	if admitted.Load() < 3 || refused.Load() == 0 {
		t.Fatalf("admitted %d, refused %d: the test did not contend", admitted.Load(), refused.Load())
	}
	// Everything was released: the full limit is free again.
	for range 3 {
		if _, err := engines[0].Acquire(context.Background(), acct, l); err != nil {
			t.Fatalf("after release: %v", err)
		}
	}
}

func TestConcurrencyLeakedSlotExpires(t *testing.T) {
	env := newEnv(t, time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	e := env.engine(t) // lease margin 10s
	acct := env.account(t)
	l := limits.Limits{ConcurrentRequests: 1}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	leaked, err := e.Acquire(ctx, acct, l) // its process "crashes": never released
	if err != nil {
		t.Fatal(err)
	}
	if d := leaked.Expires.Sub(env.clock.Now()); d < 39*time.Second || d > 40*time.Second {
		t.Fatalf("lease = %s, want deadline (30s) + margin (10s)", d)
	}
	_, err = e.Acquire(ctx, acct, l)
	appError(t, err, selah.ECONCURRENCY)

	env.clock.Advance(39 * time.Second)
	_, err = e.Acquire(ctx, acct, l)
	appError(t, err, selah.ECONCURRENCY)

	env.clock.Advance(time.Second)
	slot, err := e.Acquire(ctx, acct, l)
	if err != nil {
		t.Fatalf("after the lease: %v", err)
	}
	// A late release of the leaked slot does not free the new one.
	if err := e.ReleaseSlot(context.Background(), leaked); err != nil {
		t.Fatal(err)
	}
	_, err = e.Acquire(ctx, acct, l)
	appError(t, err, selah.ECONCURRENCY)
	if err := e.ReleaseSlot(context.Background(), slot); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Acquire(ctx, acct, l); err != nil {
		t.Fatalf("after release: %v", err)
	}
}

func TestAcquireAndReadReportsQuota(t *testing.T) {
	env := newEnv(t, time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	e := env.engine(t)
	acct := env.account(t)
	l := limits.Limits{ConcurrentRequests: 1, AsksPerDay: 10, AsksPerMonth: 100}

	r, err := e.Reserve(context.Background(), acct, l)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Commit(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	slot, q, err := e.AcquireAndRead(context.Background(), acct, l)
	if err != nil {
		t.Fatal(err)
	}
	if q != (limits.Quota{Daily: 9, Monthly: 99}) {
		t.Fatalf("quota = %+v, want 9/99", q)
	}
	// Refused, it still reports the quota.
	_, q, err = e.AcquireAndRead(context.Background(), acct, l)
	appError(t, err, selah.ECONCURRENCY)
	if q != (limits.Quota{Daily: 9, Monthly: 99}) {
		t.Fatalf("quota on refusal = %+v, want 9/99", q)
	}
	e.ReleaseSlot(context.Background(), slot)

	// With Redis emptied, the quota comes back from Postgres.
	env.rdb.FlushDB(context.Background())
	_, q, err = e.AcquireAndRead(context.Background(), acct, l)
	if err != nil || q != (limits.Quota{Daily: 9, Monthly: 99}) {
		t.Fatalf("after flush: %+v %v, want 9/99", q, err)
	}
}

func TestScriptsReloadAfterScriptFlush(t *testing.T) {
	env := newEnv(t, time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	e := env.engine(t)
	acct := env.account(t)
	l := limits.Limits{ConcurrentRequests: 2, AsksPerDay: 10, AsksPerMonth: 100}
	if _, _, err := e.AcquireAndRead(context.Background(), acct, l); err != nil {
		t.Fatal(err)
	}
	// Redis restarted without its script cache: the pipeline reloads the
	// scripts and runs again, and the retry does not take a second slot.
	if err := env.rdb.ScriptFlush(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
	slot, q, err := e.AcquireAndRead(context.Background(), acct, l)
	if err != nil {
		t.Fatal(err)
	}
	if slot.InFlight != 2 || q != (limits.Quota{Daily: 10, Monthly: 100}) {
		t.Fatalf("slot %+v quota %+v, want 2 in flight and 10/100", slot, q)
	}
}
