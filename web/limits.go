package web

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/cors"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/limits"
	"github.com/selahdev/selah/web/reqlog"
)

// Limit headers. Every authenticated API response carries them, errors and
// 429s included:
//
//   - X-RateLimit-Limit: the plan's requests per minute, N. The limit is a
//     GCRA: a burst of N requests, then one request every 60/N seconds.
//   - X-RateLimit-Remaining: requests that could be made right now, this one
//     already counted.
//   - X-RateLimit-Reset: seconds (rounded up) until the full burst of N is
//     available again; 0 when it already is.
//   - Retry-After (on 429 only): seconds (rounded up, at least 1) until a
//     request can succeed: the next request slot for rate_limited, 1 for
//     concurrency_limited, the end of the UTC day or month for
//     quota_exceeded.
//   - X-Quota-Daily-Remaining, X-Quota-Monthly-Remaining: Ask calls that can
//     still be accepted in the current UTC day and month, Asks in flight
//     counted as taken. On a successful /ask they are the values after that
//     Ask was charged.
//
// A limit the plan does not have (limits.Unlimited) has no headers.
const (
	HeaderRateLimitLimit     = "X-RateLimit-Limit"
	HeaderRateLimitRemaining = "X-RateLimit-Remaining"
	HeaderRateLimitReset     = "X-RateLimit-Reset"
	HeaderQuotaDaily         = "X-Quota-Daily-Remaining"
	HeaderQuotaMonthly       = "X-Quota-Monthly-Remaining"
)

// releaseTimeout bounds giving a slot back once its request is over (and
// perhaps cancelled).
const releaseTimeout = 2 * time.Second

// apiCORS lets browser code call the API from any origin: keys, not
// cookies, authenticate it, so no credentials are allowed. Preflights are
// answered before authentication; the limit headers are exposed so scripts
// can read them.
func apiCORS() fiber.Handler {
	return cors.New(cors.Config{
		AllowOrigins: "*",
		AllowMethods: "GET,POST,OPTIONS",
		AllowHeaders: "Authorization,Content-Type,X-Request-Id,If-None-Match",
		ExposeHeaders: HeaderRateLimitLimit + "," + HeaderRateLimitRemaining + "," + HeaderRateLimitReset + "," +
			HeaderQuotaDaily + "," + HeaderQuotaMonthly + ",Retry-After,X-Request-Id,ETag," +
			HeaderCorpusEdition + "," + HeaderCorpusChecksum,
		MaxAge: 86400,
	})
}

// planLimits are the engine's limits of a plan.
func planLimits(p store.Plan) limits.Limits {
	return limits.Limits{
		RequestsPerMinute:  p.RequestsPerMinute,
		ConcurrentRequests: p.ConcurrentRequests,
		AsksPerDay:         p.AsksPerDay,
		AsksPerMonth:       p.AsksPerMonth,
	}
}

// principal returns the caller; the limit middleware runs after
// authenticate, so its absence is a wiring bug.
func principal(c *fiber.Ctx) (*Principal, error) {
	if p := PrincipalOf(c); p != nil {
		return p, nil
	}
	return nil, errors.New("web: limits: no principal; authenticate must run first")
}

// limitsUnavailable logs why Redis or Postgres could not be asked and fails
// the request: limits are never skipped.
func limitsUnavailable(c *fiber.Ctx, err error) error {
	reqlog.From(c).Error("limits unavailable", slog.String("error", err.Error()))
	return &selah.Error{Code: selah.EUNAVAILABLE, Message: "Limits cannot be checked right now. Try again shortly.", RetryAfter: 1}
}

func setRateHeaders(c *fiber.Ctx, r limits.Rate) {
	if r.Limit == limits.Unlimited {
		return
	}
	c.Set(HeaderRateLimitLimit, strconv.Itoa(r.Limit))
	c.Set(HeaderRateLimitRemaining, strconv.Itoa(r.Remaining))
	c.Set(HeaderRateLimitReset, strconv.Itoa(r.ResetSeconds()))
}

func setQuotaHeaders(c *fiber.Ctx, q limits.Quota) {
	if q.Daily != limits.Unlimited {
		c.Set(HeaderQuotaDaily, strconv.Itoa(q.Daily))
	}
	if q.Monthly != limits.Unlimited {
		c.Set(HeaderQuotaMonthly, strconv.Itoa(q.Monthly))
	}
}

// isRefusal reports whether err is the engine saying no, as opposed to the
// engine failing.
func isRefusal(err error) bool {
	var ae *selah.Error
	return errors.As(err, &ae)
}

// admit runs the account's limits on every authenticated request in one
// Redis round trip (limits.Engine.Admit): it counts the request against
// the per-minute limit, shared by all web processes, holds one of the
// account's in-flight slots while the rest of the chain runs, and reads
// the Ask quota, and sets the X-RateLimit-* and X-Quota-* headers. The
// slot is given back afterwards, in one more round trip, whether the
// handler returned, failed or panicked. Over the per-minute limit it
// answers 429 rate_limited with Retry-After until the next request slot;
// with all slots taken, 429 concurrency_limited, Retry-After 1.
//
// The request's context gets the server's RequestTimeout as deadline (if it
// has none), and the slot's lease is that deadline plus a margin, so a
// process that dies mid-request frees its slot by itself.
func (s *Server) admit(c *fiber.Ctx) error {
	p, err := principal(c)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	if _, ok := ctx.Deadline(); !ok {
		orig := ctx
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.RequestTimeout)
		c.SetUserContext(ctx)
		defer func() {
			cancel()
			c.SetUserContext(orig) // what runs after us (logging, errors) is not cut short
		}()
	}
	a, err := s.limits.Admit(ctx, p.AccountID, planLimits(p.Plan))
	if err != nil && !isRefusal(err) {
		return limitsUnavailable(c, err)
	}
	setRateHeaders(c, a.Rate)
	setQuotaHeaders(c, a.Quota)
	if err != nil {
		s.metrics.rejected(selah.ErrorCode(err))
		return err
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
		defer cancel()
		if err := s.limits.ReleaseSlot(rctx, a.Slot); err != nil {
			// The lease frees the slot later; the account is briefly
			// allowed one request fewer.
			reqlog.From(c).Warn("release concurrency slot", slog.String("error", err.Error()))
		}
	}()
	return c.Next()
}

// reserveAsk claims one Ask of the caller's daily and monthly quota. The
// /ask handler calls it before it enqueues the work, then commitAsk when the
// Ask succeeded or releaseAsk otherwise (withAskQuota does all three). A
// used-up quota is the *selah.Error quota_exceeded (429 with Retry-After
// until the UTC day or month ends). The X-Quota-* headers are set to the
// quota left with this Ask counted.
func (s *Server) reserveAsk(c *fiber.Ctx) (limits.Reservation, error) {
	p, err := principal(c)
	if err != nil {
		return limits.Reservation{}, err
	}
	l := planLimits(p.Plan)
	r, err := s.limits.Reserve(c.UserContext(), p.AccountID, l)
	if err != nil && !isRefusal(err) {
		return limits.Reservation{}, limitsUnavailable(c, err)
	}
	if err != nil {
		s.metrics.rejected(selah.ErrorCode(err))
		if d, m, qerr := s.limits.Remaining(c.UserContext(), p.AccountID, l); qerr == nil {
			setQuotaHeaders(c, limits.Quota{Daily: d, Monthly: m})
		}
		return limits.Reservation{}, err
	}
	setQuotaHeaders(c, r.Left)
	return r, nil
}

// commitAsk charges the reservation of an Ask that succeeded (recorded in
// Postgres, counted in Redis; committing twice charges once) and sets the
// X-Quota-* headers to the quota left afterwards. An error means the Ask
// could not be recorded or counted: the handler should log it and still
// serve the answer, since the work is done. The reservation lapses by
// itself and is then settled from Postgres: counted if the Ask was
// recorded there, dropped if not.
func (s *Server) commitAsk(c *fiber.Ctx, r limits.Reservation) error {
	q, err := s.limits.Commit(c.UserContext(), r)
	if err != nil {
		return err
	}
	setQuotaHeaders(c, q)
	return nil
}

// releaseAsk gives back the reservation of an Ask that failed or never ran;
// it is not charged. A failure is only logged: the reservation lapses at
// its lease expiry anyway.
func (s *Server) releaseAsk(c *fiber.Ctx, r limits.Reservation) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.UserContext()), releaseTimeout)
	defer cancel()
	if err := s.limits.Release(ctx, r); err != nil {
		reqlog.From(c).Warn("release ask reservation", slog.String("error", err.Error()))
		return
	}
	if d, m, err := s.limits.Remaining(ctx, r.AccountID, r.Limits); err == nil {
		setQuotaHeaders(c, limits.Quota{Daily: d, Monthly: m})
	}
}

// withAskQuota runs ask under a quota reservation: reserved first, charged
// when ask returns nil, released when it fails or panics.
func (s *Server) withAskQuota(c *fiber.Ctx, ask func() error) (err error) {
	r, err := s.reserveAsk(c)
	if err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed {
			s.releaseAsk(c, r)
		}
	}()
	if err := ask(); err != nil {
		return err
	}
	committed = true
	if err := s.commitAsk(c, r); err != nil {
		reqlog.From(c).Error("record ask usage", slog.String("error", err.Error()), slog.String("reservation", r.ID))
	}
	return nil
}
