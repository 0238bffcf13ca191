package limits

import (
	"context"
	"fmt"

	"time"

	"github.com/go-redis/redis_rate/v10"
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

// Usage reads the account's standing. Nothing is counted: the rate is read
// with a GCRA check of cost zero, the in-flight slots are counted, and the
// quota is read as the X-Quota-* headers read it.
func (e *Engine) Usage(ctx context.Context, accountID int64, l Limits) (Usage, error) {
	now := e.now()
	u := Usage{Rate: Rate{Limit: Unlimited, Allowed: true}}
	day := time.Date(now.UTC().Year(), now.UTC().Month(), now.UTC().Day(), 0, 0, 0, 0, time.UTC)
	u.DayEnds, u.MonthEnds = day.AddDate(0, 0, 1), time.Date(day.Year(), day.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, 1, 0)
	switch n := l.RequestsPerMinute; {
	case n == 0:
		u.Rate = Rate{Limit: 0, RetryAfter: time.Minute, ResetAfter: time.Minute}
	case n > 0:
		res, err := e.rate.AllowN(ctx, e.key(accountID, "rpm"), redis_rate.PerMinute(n), 0)
		if err != nil {
			return u, fmt.Errorf("limits: read rate of account %d: %w", accountID, err)
		}
		u.Rate = Rate{Limit: n, Remaining: res.Remaining, Allowed: res.Remaining > 0, ResetAfter: max(res.ResetAfter, 0)}
		if !u.Rate.Allowed {
			// The next slot frees one emission interval after the burst
			// was last full; ResetAfter covers a whole burst of n.
			u.Rate.RetryAfter = max(res.ResetAfter-time.Duration(n-1)*time.Minute/time.Duration(n), 0)
		}
	}
	if l.ConcurrentRequests >= 0 {
		n, err := e.rdb.ZCount(ctx, e.key(accountID, "inflight"), "("+ms(now), "+inf").Result()
		if err != nil {
			return u, fmt.Errorf("limits: read in-flight of account %d: %w", accountID, err)
		}
		u.InFlight = int(n)
	}
	q, err := e.remaining(ctx, accountID, l, now)
	if err != nil {
		return u, err
	}
	u.Quota = q
	return u, nil
}
