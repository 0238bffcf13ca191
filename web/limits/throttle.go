package limits

import (
	"context"
	"fmt"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

// Throttles guard the website's unauthenticated doors (sign-in, sign-up,
// bad API keys) by a name the caller chooses: a hash of a client address,
// of an e-mail address, or a global name. Callers hash anything personal
// before it becomes a name, so Redis holds no addresses.

// Budget is a fixed-window allowance: Limit attempts per Window, counted
// from the first attempt of the window.
type Budget struct {
	Limit  int
	Window time.Duration
}

// attemptScript counts one attempt if the budget has room. The INCR and
// the refusal are one step, so parallel attempts can never together pass
// the limit (a check-then-act counter let 40 parallel guesses through a
// limit of 10). ARGV limit, window (ms). Returns {admitted, ttl ms}.
var attemptScript = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
if n > tonumber(ARGV[1]) then
  redis.call('DECR', KEYS[1])
  return {0, ttl}
end
return {1, ttl}
`)

func (e *Engine) throttleKey(name string) string { return e.cfg.Prefix + "throttle:" + name }

// Attempt reserves one attempt of name's budget. It reports whether the
// attempt may proceed and, when not, how long until the window ends. An
// error means Redis could not be asked.
func (e *Engine) Attempt(ctx context.Context, name string, b Budget) (bool, time.Duration, error) {
	v, err := attemptScript.Run(ctx, e.rdb, []string{e.throttleKey(name)}, b.Limit, b.Window.Milliseconds()).Result()
	if err != nil {
		return false, 0, fmt.Errorf("limits: attempt %s: %w", name, err)
	}
	r, err := ints(v, 2)
	if err != nil {
		return false, 0, err
	}
	return r[0] == 1, time.Duration(r[1]) * time.Millisecond, nil
}

// Undo gives back one attempt reserved by Attempt (the attempt turned out
// not to count, e.g. a sign-in that succeeded).
func (e *Engine) Undo(ctx context.Context, name string) error {
	err := e.rdb.Eval(ctx, `if (tonumber(redis.call('GET', KEYS[1])) or 0) > 0 then return redis.call('DECR', KEYS[1]) end return 0`,
		[]string{e.throttleKey(name)}).Err()
	if err != nil {
		return fmt.Errorf("limits: undo attempt %s: %w", name, err)
	}
	return nil
}

// Reset forgets name's attempts.
func (e *Engine) Reset(ctx context.Context, name string) error {
	if err := e.rdb.Del(ctx, e.throttleKey(name)).Err(); err != nil {
		return fmt.Errorf("limits: reset %s: %w", name, err)
	}
	return nil
}

// Bucket takes one token of name's token bucket of perMinute tokens a
// minute with a burst of burst (a GCRA, as the API's rate limit). It
// reports whether a token was there and, when not, when the next one is.
func (e *Engine) Bucket(ctx context.Context, name string, perMinute, burst int) (bool, time.Duration, error) {
	return e.BucketN(ctx, name, perMinute, burst, 1)
}

// BucketN is Bucket taking n tokens; n = 0 only reports whether a token
// is there.
func (e *Engine) BucketN(ctx context.Context, name string, perMinute, burst, n int) (bool, time.Duration, error) {
	res, err := e.rate.AllowN(ctx, e.throttleKey(name), redis_rate.Limit{Rate: perMinute, Burst: burst, Period: time.Minute}, n)
	if err != nil {
		return false, 0, fmt.Errorf("limits: bucket %s: %w", name, err)
	}
	if n == 0 {
		return res.Remaining > 0, max(res.RetryAfter, 0), nil
	}
	return res.Allowed > 0, max(res.RetryAfter, 0), nil
}
