package limits

import (
	"context"
	"fmt"
	"time"

	"github.com/go-redis/redis_rate/v10"

	"github.com/selahdev/selah"
)

// Rate is the outcome of one request against the per-minute limit.
//
// The limit is a GCRA (generic cell rate algorithm) with burst = rate = N
// per minute: an idle account may make N requests at once, after which one
// more request is allowed every 60/N seconds, and the burst refills at that
// same pace. Over any minute an account never gets more than 2N requests
// (a full burst, then a refilled one) and over long spans never more than
// N per minute.
type Rate struct {
	// Limit is N, the requests per minute of the plan; Unlimited when the
	// plan has no rate limit.
	Limit int
	// Allowed reports whether this request may proceed.
	Allowed bool
	// Remaining is how many more requests would be allowed right now.
	Remaining int
	// RetryAfter is, when the request was refused, the time until the next
	// request will be allowed; zero when allowed.
	RetryAfter time.Duration
	// ResetAfter is the time until the full burst is available again
	// (Remaining == Limit); zero when it already is.
	ResetAfter time.Duration
}

// ResetSeconds is ResetAfter in whole seconds, rounded up.
func (r Rate) ResetSeconds() int { return ceilSeconds(r.ResetAfter, 0) }

// RetryAfterSeconds is RetryAfter in whole seconds, rounded up and at least
// one.
func (r Rate) RetryAfterSeconds() int { return ceilSeconds(r.RetryAfter, 1) }

// Allow counts one request of the account against l.RequestsPerMinute.
// A refused request returns its Rate (for headers) together with a
// *selah.Error with code ERATELIMITED and RetryAfter set; any other error
// means Redis could not be asked.
func (e *Engine) Allow(ctx context.Context, accountID int64, l Limits) (Rate, error) {
	n := l.RequestsPerMinute
	switch {
	case n < 0:
		return Rate{Limit: Unlimited, Allowed: true}, nil
	case n == 0:
		r := Rate{Limit: 0, RetryAfter: time.Minute, ResetAfter: time.Minute}
		return r, &selah.Error{Code: selah.ERATELIMITED, Message: "Your plan allows no API requests.", RetryAfter: r.RetryAfterSeconds()}
	}
	res, err := e.rate.Allow(ctx, e.key(accountID, "rpm"), redis_rate.PerMinute(n))
	if err != nil {
		return Rate{}, fmt.Errorf("limits: rate of account %d: %w", accountID, err)
	}
	r := Rate{Limit: n, Allowed: res.Allowed > 0, Remaining: res.Remaining, ResetAfter: max(res.ResetAfter, 0)}
	if r.Allowed {
		return r, nil
	}
	r.RetryAfter = max(res.RetryAfter, 0)
	return r, &selah.Error{
		Code:       selah.ERATELIMITED,
		Message:    fmt.Sprintf("Rate limit of %d requests per minute exceeded. Retry after %d s.", n, r.RetryAfterSeconds()),
		RetryAfter: r.RetryAfterSeconds(),
	}
}
