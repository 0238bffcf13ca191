package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/web/limits"
	"github.com/selahdev/selah/web/reqlog"
)

const (
	// A client (IP and email together) that fails to sign in
	// signInMaxFailures times is refused for the rest of signInWindow.
	// Keying on both stops password guessing from one place without letting
	// anyone lock a victim out from everywhere.
	signInMaxFailures = 10
	signInWindow      = 15 * time.Minute
)

// throttleName names a throttle by a hash of its parts, so that Redis
// holds no e-mail or client addresses.
func throttleName(kind string, parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return kind + ":" + hex.EncodeToString(sum[:16])
}

// throttleState tracks how long the throttles' Redis has been failing.
type throttleState struct {
	downSince atomic.Int64 // unix ns of the first failure of the outage; 0 when up
}

// throttleGrace is how long the sign-in and sign-up throttles stay open
// while Redis cannot be asked: a blip must not lock everyone out, but an
// outage must not leave sign-in unthrottled either (argon2id alone let a
// flood starve real users). After it they fail closed with 503.
const throttleGrace = 30 * time.Second

// throttleErr turns a Redis failure of a throttle into nil (fail open,
// within throttleGrace of the outage's start) or a 503.
func (s *Server) throttleErr(c *fiber.Ctx, err error) error {
	now := s.now().UnixNano()
	s.throttle.downSince.CompareAndSwap(0, now)
	if time.Duration(now-s.throttle.downSince.Load()) < throttleGrace {
		reqlog.From(c).Warn("throttle unavailable, open during grace", slog.String("error", err.Error()))
		return nil
	}
	reqlog.From(c).Error("throttle unavailable, failing closed", slog.String("error", err.Error()))
	return &selah.Error{Code: selah.EUNAVAILABLE, Message: "Signing in and up is unavailable right now. Try again shortly.", RetryAfter: 5}
}

// throttled runs one throttle check: nil to go on, a *selah.Error 429
// (EFORBIDDEN-free, rendered on the form by the caller) when refused, or a
// 503 when Redis has been down past the grace.
func (s *Server) throttled(c *fiber.Ctx, check func(ctx context.Context) (bool, time.Duration, error), msg string) error {
	ok, retry, err := check(c.UserContext())
	if err != nil {
		return s.throttleErr(c, err)
	}
	s.throttle.downSince.Store(0)
	if ok {
		return nil
	}
	return &selah.Error{Code: selah.ERATELIMITED, Message: msg, RetryAfter: max(1, int((retry+time.Second-1)/time.Second))}
}

// Sign-in and sign-up throttles (issue 14). Every check reserves before
// the work, atomically, so parallel requests cannot overrun a limit.
var (
	// signInPerClient: failures of one client address and e-mail; the
	// classic lockout, reset by a successful sign-in.
	signInPerClient = limits.Budget{Limit: signInMaxFailures, Window: signInWindow}
	// signInPerEmail: failures for one e-mail from all addresses, so a
	// botnet cannot spread guesses over addresses. It is larger, so one
	// attacker cannot lock a user out alone; a success gives back its own
	// attempt only.
	signInPerEmail = limits.Budget{Limit: 5 * signInMaxFailures, Window: signInWindow}
	// signUpPerClient and signUpGlobal: every account brings its own free
	// quota, so accounts are throttled per client address and overall.
	signUpPerClient = limits.Budget{Limit: 5, Window: time.Hour}
	signUpGlobal    = limits.Budget{Limit: 60, Window: time.Minute}
)

// Password attempts per client address: a token bucket in front of the
// argon2id slots, so a flood from one address is refused before it costs
// a hash and real users keep their slots.
const (
	signInBucketPerMinute = 20
	signInBucketBurst     = 10
)
