package limits

import (
	"context"
	"fmt"
	"time"
)

// Usage is where an account stands against every limit, read without
// counting anything.
type Usage struct {
	// Rate is the per-minute limit as the next request would find it
	// (Allowed and RetryAfter describe that request).
	Rate Rate
	// InFlight is the number of the account's requests in progress.
	InFlight int
	// Quota is the Ask quota left this UTC day and month.
	Quota Quota
	// DayEnds and MonthEnds are when the Ask quotas start afresh.
	DayEnds, MonthEnds time.Time
}

// Usage reads the account's standing in one Redis round trip (admitScript
// counting nothing): the rate is read with a GCRA check of cost zero, the
// in-flight slots are counted, and the quota is read as the X-Quota-*
// headers read it.
func (e *Engine) Usage(ctx context.Context, accountID int64, l Limits) (Usage, error) {
	now := e.now()
	u := Usage{Rate: Rate{Limit: Unlimited, Allowed: true}}
	day := time.Date(now.UTC().Year(), now.UTC().Month(), now.UTC().Day(), 0, 0, 0, 0, time.UTC)
	u.DayEnds, u.MonthEnds = day.AddDate(0, 0, 1), time.Date(day.Year(), day.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, 1, 0)
	args := admitArgs{rate: max(l.RequestsPerMinute, 0), cost: 0, slot: "none", quota: true}
	if l.ConcurrentRequests >= 0 {
		args.slot = "count"
	}
	reply, err := e.runAdmit(ctx, accountID, now, Slot{}, 0, args)
	if err != nil {
		return u, fmt.Errorf("limits: read usage of account %d: %w", accountID, err)
	}
	switch n := l.RequestsPerMinute; {
	case n == 0:
		u.Rate = Rate{Limit: 0, RetryAfter: time.Minute, ResetAfter: time.Minute}
	case n > 0:
		u.Rate = Rate{Limit: n, Remaining: reply.remaining, Allowed: reply.remaining > 0, ResetAfter: max(reply.reset, 0)}
		if !u.Rate.Allowed {
			// The next slot frees one emission interval after the burst
			// was last full; ResetAfter covers a whole burst of n.
			u.Rate.RetryAfter = max(reply.reset-time.Duration(n-1)*time.Minute/time.Duration(n), 0)
		}
	}
	u.InFlight = reply.inFlight
	if u.Quota, err = e.quotaOf(ctx, accountID, l, now, reply.quota); err != nil {
		return u, err
	}
	return u, nil
}
