package limits

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah"
)

// Counters: fixed-window allowances of the website that belong to no
// account, such as the chat's messages per visitor and per client address
// and UTC day, or reports per address and hour. One use is counted against
// several subjects at once (a visitor and its address), all or none, inside
// one script: a use is refused when any subject has none left, so neither
// clearing cookies nor sharing an address gets past the other limit, and
// two processes can never both take the last unit.

// Subject is one party an allowance is counted against, with its limit per
// window (Unlimited: not counted).
type Subject struct {
	ID    string // e.g. "visitor:<hash>" or "addr:203.0.113.9"
	Limit int
}

// Count is a use taken by Take, and what is left after it.
type Count struct {
	keys []string
	// Remaining is the fewest uses any subject has left in the window.
	Remaining int
	// ResetAt is when the window ends.
	ResetAt time.Time
}

// counterMargin keeps a counter past its window's end, so a use given back
// just after midnight still finds its counter.
const counterMargin = time.Hour

// takeScript takes one use from every key, or none when any key has
// reached its limit. KEYS are the counters, ARGV[1] their time to live in
// milliseconds, ARGV[2..] their limits. Reply {1, fewest left} or {0, the
// 1-based index of the first exhausted key}.
var takeScript = redis.NewScript(`
for i, k in ipairs(KEYS) do
  if tonumber(redis.call('GET', k) or '0') >= tonumber(ARGV[i + 1]) then
    return {0, i}
  end
end
local left = -1
for i, k in ipairs(KEYS) do
  local n = redis.call('INCR', k)
  redis.call('PEXPIRE', k, ARGV[1])
  local l = tonumber(ARGV[i + 1]) - n
  if left < 0 or l < left then left = l end
end
return {1, left}
`)

// giveBackScript returns one use to every key that still counts one.
var giveBackScript = redis.NewScript(`
for _, k in ipairs(KEYS) do
  if tonumber(redis.call('GET', k) or '0') > 0 then redis.call('DECR', k) end
end
return 1
`)

// windowOf returns the start and end of the window of length per (a day or
// an hour: both divide UTC days evenly) that holds t.
func windowOf(t time.Time, per time.Duration) (start, end time.Time) {
	start = t.UTC().Truncate(per)
	return start, start.Add(per)
}

// counterKeys names the counters of name's current window. The window is a
// hash tag, so one script may touch all of them in Redis Cluster.
func (e *Engine) counterKeys(name string, start time.Time, subjects []Subject) (keys, limits []string) {
	tag := e.cfg.Prefix + "{" + name + ":" + strconv.FormatInt(start.Unix(), 10) + "}:"
	for _, s := range subjects {
		if s.Limit == Unlimited {
			continue
		}
		keys = append(keys, tag+s.ID)
		limits = append(limits, strconv.Itoa(s.Limit))
	}
	return keys, limits
}

// Take counts one use of the allowance name (windows of length per, UTC
// aligned) against every subject. When a subject has none left it is an
// EQUOTA *selah.Error whose RetryAfter is the end of the window; the
// caller words the message, since only it knows what was refused.
func (e *Engine) Take(ctx context.Context, name string, per time.Duration, subjects []Subject) (Count, error) {
	now := e.now()
	start, end := windowOf(now, per)
	keys, limits := e.counterKeys(name, start, subjects)
	c := Count{keys: keys, ResetAt: end, Remaining: Unlimited}
	if len(keys) == 0 {
		return c, nil
	}
	args := []any{(end.Sub(now) + counterMargin).Milliseconds()}
	for _, l := range limits {
		args = append(args, l)
	}
	cmds, err := e.pipelined(ctx, []*redis.Script{takeScript}, func(p redis.Pipeliner) []*redis.Cmd {
		return []*redis.Cmd{takeScript.EvalSha(ctx, p, keys, args...)}
	})
	if err != nil {
		return Count{}, fmt.Errorf("limits: take %s: %w", name, err)
	}
	res, err := ints(cmds[0].Val(), 2)
	if err != nil {
		return Count{}, err
	}
	if res[0] == 0 {
		return Count{ResetAt: end}, &selah.Error{Code: selah.EQUOTA, RetryAfter: ceilSeconds(end.Sub(now), 1),
			Message: fmt.Sprintf("The %s allowance is used up until %s.", name, end.Format("2006-01-02 15:04 UTC"))}
	}
	c.Remaining = int(res[1])
	return c, nil
}

// GiveBack returns a use taken by Take (the work it paid for failed). Its
// window is the one it was taken in, even past that window's end.
func (e *Engine) GiveBack(ctx context.Context, c Count) error {
	if len(c.keys) == 0 {
		return nil
	}
	_, err := e.pipelined(ctx, []*redis.Script{giveBackScript}, func(p redis.Pipeliner) []*redis.Cmd {
		return []*redis.Cmd{giveBackScript.EvalSha(ctx, p, c.keys)}
	})
	if err != nil {
		return fmt.Errorf("limits: give back: %w", err)
	}
	return nil
}

// Left returns how many uses of name the subjects have left in the current
// window (the fewest of any subject; Unlimited when none is counted), and
// when the window ends.
func (e *Engine) Left(ctx context.Context, name string, per time.Duration, subjects []Subject) (int, time.Time, error) {
	start, end := windowOf(e.now(), per)
	keys, limits := e.counterKeys(name, start, subjects)
	if len(keys) == 0 {
		return Unlimited, end, nil
	}
	vals, err := e.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return 0, end, fmt.Errorf("limits: %s left: %w", name, err)
	}
	left := -1
	for i, v := range vals {
		used := 0
		if s, ok := v.(string); ok {
			used, _ = strconv.Atoi(s)
		}
		limit, _ := strconv.Atoi(limits[i])
		if l := max(0, limit-used); left < 0 || l < left {
			left = l
		}
	}
	return left, end, nil
}
