package limits

import (
	"context"
	"time"
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

// Allow counts one request of the account against l.RequestsPerMinute:
// Admit's rate step alone. A refused request returns its Rate (for
// headers) together with a *selah.Error with code ERATELIMITED and
// RetryAfter set; any other error means Redis could not be asked.
func (e *Engine) Allow(ctx context.Context, accountID int64, l Limits) (Rate, error) {
	a, err := e.admit(ctx, accountID, l, stepRate)
	return a.Rate, err
}
