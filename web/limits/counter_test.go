package limits_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/web/limits"
)

// Concurrent takes from several engines never admit more than the tightest
// subject allows, and a refusal leaves every counter as it was.
func TestCounterNeverOverAdmits(t *testing.T) {
	t.Parallel()
	env := newEnv(t, time.Date(2030, 5, 6, 23, 0, 0, 0, time.UTC))
	ctx := context.Background()
	engines := []*limits.Engine{env.engine(t), env.engine(t), env.engine(t)}
	visitor := limits.Subject{ID: "visitor:a", Limit: 7}
	addr := limits.Subject{ID: "addr:192.0.2.1", Limit: 10}
	var ok, refused atomic.Int64
	parallel(30, func(i int) {
		_, err := engines[i%len(engines)].Take(ctx, "chat", 24*time.Hour, []limits.Subject{visitor, addr})
		if err != nil {
			appError(t, err, selah.EQUOTA)
			refused.Add(1)
			return
		}
		ok.Add(1)
	})
	if ok.Load() != 7 || refused.Load() != 23 {
		t.Fatalf("admitted %d, refused %d; want 7 and 23", ok.Load(), refused.Load())
	}
	// A second visitor on the same address has the address's 3 left.
	other := limits.Subject{ID: "visitor:b", Limit: 7}
	left, _, err := engines[0].Left(ctx, "chat", 24*time.Hour, []limits.Subject{other, addr})
	if err != nil || left != 3 {
		t.Fatalf("Left = %d, %v; want 3", left, err)
	}
	var last limits.Count
	for i := range 3 {
		if last, err = engines[1].Take(ctx, "chat", 24*time.Hour, []limits.Subject{other, addr}); err != nil || last.Remaining != 2-i {
			t.Fatalf("take %d: %+v %v", i, last, err)
		}
	}
	_, err = engines[2].Take(ctx, "chat", 24*time.Hour, []limits.Subject{other, addr})
	if ae := appError(t, err, selah.EQUOTA); ae.RetryAfter != 3600 {
		t.Fatalf("RetryAfter = %d, want the hour to midnight", ae.RetryAfter)
	}

	// A use given back can be taken again; giving back never goes below zero.
	if err := engines[0].GiveBack(ctx, last); err != nil {
		t.Fatal(err)
	}
	if left, _, _ := engines[0].Left(ctx, "chat", 24*time.Hour, []limits.Subject{other, addr}); left != 1 {
		t.Fatalf("after giving back, %d left", left)
	}

	// The next UTC day starts afresh.
	env.clock.Advance(time.Hour)
	c, err := engines[0].Take(ctx, "chat", 24*time.Hour, []limits.Subject{visitor, addr})
	if err != nil || c.Remaining != 6 || !c.ResetAt.Equal(time.Date(2030, 5, 8, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("next day: %+v %v", c, err)
	}
}

func TestCounterUnlimitedAndZero(t *testing.T) {
	t.Parallel()
	env := newEnv(t, time.Date(2030, 5, 6, 12, 0, 0, 0, time.UTC))
	e := env.engine(t)
	ctx := context.Background()
	c, err := e.Take(ctx, "reports", time.Hour, []limits.Subject{{ID: "addr:x", Limit: limits.Unlimited}})
	if err != nil || c.Remaining != limits.Unlimited {
		t.Fatalf("unlimited: %+v %v", c, err)
	}
	_, err = e.Take(ctx, "reports", time.Hour, []limits.Subject{{ID: "addr:x", Limit: 0}})
	appError(t, err, selah.EQUOTA)
}
