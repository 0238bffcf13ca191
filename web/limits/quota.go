package limits

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah"
)

// The Ask quota keeps, per account and per window (UTC day, UTC month), a
// counter of committed Asks ("used") and a ZSET of outstanding reservations
// scored by expiry ("held"). A reservation is admitted only while
// used + unexpired held < limit in both windows, so concurrent Asks can
// never together exceed a quota, and an Ask that fails never counts: it is
// released, or, if its process died, its reservation expires.
//
// Postgres is the durable record. Commit writes it before Redis; when a
// window's counter is missing from Redis (new window, Redis restarted or
// flushed) it is seeded from Postgres with SET NX before anything is
// admitted. An Ask in flight while Redis is flushed may go uncounted in
// Redis for the rest of that window; Postgres still counts it, and the next
// seeding of that window includes it.

// keySlack keeps a window's keys this long past the window's end, so a
// commit that lands just after midnight still finds its counters.
const keySlack = 24 * time.Hour

// lapseGrace keeps an expired reservation in its ZSET (without counting it)
// this long, so an Ask that overran its lease and then succeeds is still
// charged.
const lapseGrace = time.Hour

// Quota is the Ask quota an account has left: how many more Asks could be
// accepted now, counting reservations still in flight as taken. A window
// the plan does not limit reports Unlimited.
type Quota struct {
	Daily   int
	Monthly int
}

// Reservation is one Ask's claim on the quota, taken before the work
// starts. Commit it when the Ask succeeds, Release it otherwise.
type Reservation struct {
	ID        string
	AccountID int64
	// At is when the reservation was taken; the Ask counts toward the UTC
	// day and month of At, whenever it commits.
	At      time.Time
	Expires time.Time
	Limits  Limits
	// Left is the quota left once this reservation is taken.
	Left Quota
}

type window struct {
	used, held string
	end        time.Time
}

type windows struct {
	day, month window
}

// windows names the account's quota keys for the UTC day and month of t.
func (e *Engine) windows(accountID int64, t time.Time) windows {
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	month := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	d := e.key(accountID, "asks:day:"+day.Format("2006-01-02"))
	m := e.key(accountID, "asks:month:"+month.Format("2006-01"))
	return windows{
		day:   window{used: d + ":used", held: d + ":held", end: day.AddDate(0, 0, 1)},
		month: window{used: m + ":used", held: m + ":held", end: month.AddDate(0, 1, 0)},
	}
}

func (w windows) keys() []string {
	return []string{w.day.used, w.day.held, w.month.used, w.month.held}
}

// ttl is how long, from now, a window's keys are kept.
func (w window) ttl(now time.Time) int64 {
	return (w.end.Sub(now) + keySlack).Milliseconds()
}

// quotaState is the state of both windows after the script ran.
type quotaState struct {
	dayUsed, dayHeld, monthUsed, monthHeld int
}

func (s quotaState) remaining(l Limits) Quota {
	return Quota{Daily: left(l.AsksPerDay, s.dayUsed+s.dayHeld), Monthly: left(l.AsksPerMonth, s.monthUsed+s.monthHeld)}
}

func left(limit, taken int) int {
	if limit < 0 {
		return Unlimited
	}
	return max(limit-taken, 0)
}

// stateLua reads both windows into {dayUsed, dayHeld, monthUsed, monthHeld}
// with -1 for a used counter that does not exist. It is shared by the
// scripts below; KEYS are always dayUsed, dayHeld, monthUsed, monthHeld.
const stateLua = `
local function state(now)
  local du = redis.call('GET', KEYS[1])
  local mu = redis.call('GET', KEYS[3])
  local dh = redis.call('ZCOUNT', KEYS[2], '(' .. now, '+inf')
  local mh = redis.call('ZCOUNT', KEYS[4], '(' .. now, '+inf')
  return {tonumber(du) or -1, dh, tonumber(mu) or -1, mh}
end
`

// quotaStateScript reads the quota. ARGV now (ms).
var quotaStateScript = redis.NewScript(stateLua + `
return state(ARGV[1])
`)

// reserveScript admits one reservation if both windows have room. When a
// counter is missing it changes nothing and returns {-1}: the caller seeds
// from Postgres and tries again.
//
// ARGV now, expiry, day limit, month limit, id, day ttl, month ttl,
// cutoff (all times in ms; a negative limit is unlimited).
// Returns {admitted, day full, month full, state...}.
var reserveScript = redis.NewScript(stateLua + `
local now, expiry, dlim, mlim, id = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local dttl, mttl, cutoff = ARGV[6], ARGV[7], ARGV[8]
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('EXISTS', KEYS[3]) == 0 then
  return {-1}
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', cutoff)
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', cutoff)
local s = state(now)
local dfull = dlim >= 0 and s[1] + s[2] >= dlim
local mfull = mlim >= 0 and s[3] + s[4] >= mlim
if dfull or mfull then
  return {0, dfull and 1 or 0, mfull and 1 or 0, s[1], s[2], s[3], s[4]}
end
redis.call('ZADD', KEYS[2], expiry, id)
redis.call('ZADD', KEYS[4], expiry, id)
redis.call('PEXPIRE', KEYS[2], dttl)
redis.call('PEXPIRE', KEYS[4], mttl)
return {1, 0, 0, s[1], s[2] + 1, s[3], s[4] + 1}
`)

// commitScript turns a reservation into usage: in each window, if the
// reservation is still held (expired or not) it is removed and the counter
// incremented. A second commit finds nothing held and changes nothing. A
// missing counter is left missing: it will be seeded from Postgres, which
// already has this Ask.
//
// ARGV id, now. Returns the state after the commit.
var commitScript = redis.NewScript(stateLua + `
local id = ARGV[1]
for i = 1, 3, 2 do
  if redis.call('ZREM', KEYS[i + 1], id) == 1 and redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('INCR', KEYS[i])
  end
end
return state(ARGV[2])
`)

func parseQuotaState(v any) (quotaState, error) {
	r, err := ints(v, 1)
	if err != nil {
		return quotaState{}, err
	}
	if r[0] < 0 && len(r) == 1 {
		return quotaState{}, errNeedsSeed
	}
	if len(r) < 4 {
		return quotaState{}, fmt.Errorf("limits: unexpected quota reply %v", v)
	}
	s := quotaState{int(r[0]), int(r[1]), int(r[2]), int(r[3])}
	if s.dayUsed < 0 || s.monthUsed < 0 {
		return quotaState{}, errNeedsSeed
	}
	return s, nil
}

// Reserve claims one Ask of the account's quota for the request running
// under ctx. The claim lapses at ctx's deadline plus the lease margin. When
// the day's or the month's quota is used up it returns a *selah.Error with
// code EQUOTA and RetryAfter set to the seconds until the exhausted window
// resets (midnight UTC, or the first of next month UTC).
func (e *Engine) Reserve(ctx context.Context, accountID int64, l Limits) (Reservation, error) {
	now := e.now()
	r := Reservation{ID: newID("ask_"), AccountID: accountID, At: now, Expires: now.Add(e.lease(ctx)), Limits: l}
	w := e.windows(accountID, now)
	for attempt := 0; ; attempt++ {
		v, err := reserveScript.Run(ctx, e.rdb, w.keys(),
			ms(now), ms(r.Expires), l.AsksPerDay, l.AsksPerMonth, r.ID,
			w.day.ttl(now), w.month.ttl(now), ms(now.Add(-lapseGrace))).Result()
		if err != nil {
			return Reservation{}, fmt.Errorf("limits: reserve ask of account %d: %w", accountID, err)
		}
		res, err := ints(v, 1)
		if err != nil {
			return Reservation{}, err
		}
		if res[0] < 0 {
			if attempt >= 2 {
				return Reservation{}, fmt.Errorf("limits: reserve ask of account %d: counters vanish after seeding", accountID)
			}
			if err := e.seed(ctx, accountID, w, now); err != nil {
				return Reservation{}, err
			}
			continue
		}
		if len(res) < 7 {
			return Reservation{}, fmt.Errorf("limits: unexpected reserve reply %v", v)
		}
		r.Left = quotaState{int(res[3]), int(res[4]), int(res[5]), int(res[6])}.remaining(l)
		if res[0] == 1 {
			return r, nil
		}
		return Reservation{}, exhausted(l, w, now, res[1] == 1, res[2] == 1)
	}
}

func exhausted(l Limits, w windows, now time.Time, day, month bool) error {
	if month {
		return &selah.Error{
			Code:       selah.EQUOTA,
			Message:    fmt.Sprintf("Monthly Ask quota of %d used up; it resets at %s.", l.AsksPerMonth, w.month.end.Format("2006-01-02 15:04 UTC")),
			RetryAfter: ceilSeconds(w.month.end.Sub(now), 1),
		}
	}
	return &selah.Error{
		Code:       selah.EQUOTA,
		Message:    fmt.Sprintf("Daily Ask quota of %d used up; it resets at %s.", l.AsksPerDay, w.day.end.Format("2006-01-02 15:04 UTC")),
		RetryAfter: ceilSeconds(w.day.end.Sub(now), 1),
	}
}

// seed sets missing counters of both windows from Postgres. SET NX leaves a
// counter another process seeded (or incremented) first untouched.
func (e *Engine) seed(ctx context.Context, accountID int64, w windows, now time.Time) error {
	var daily, monthly int
	if e.usage != nil {
		var err error
		daily, monthly, err = e.usage.AskCounts(ctx, accountID, now)
		if err != nil {
			return fmt.Errorf("limits: seed quota of account %d: %w", accountID, err)
		}
	}
	_, err := e.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, w.day.used, daily, time.Duration(w.day.ttl(now))*time.Millisecond)
		p.SetNX(ctx, w.month.used, monthly, time.Duration(w.month.ttl(now))*time.Millisecond)
		return nil
	})
	if err != nil {
		return fmt.Errorf("limits: seed quota of account %d: %w", accountID, err)
	}
	return nil
}

// Commit charges the reservation: its Ask succeeded. The Ask is recorded
// in Postgres first, then counted in Redis. Committing a reservation again
// charges nothing more. It returns the quota left afterwards.
func (e *Engine) Commit(ctx context.Context, r Reservation) (Quota, error) {
	if r.ID == "" {
		return Quota{}, errors.New("limits: commit of a zero reservation")
	}
	if e.usage != nil {
		if err := e.usage.RecordAsk(ctx, r.ID, r.AccountID, r.At); err != nil {
			return Quota{}, fmt.Errorf("limits: commit ask of account %d: %w", r.AccountID, err)
		}
	}
	now := e.now()
	w := e.windows(r.AccountID, r.At)
	v, err := commitScript.Run(ctx, e.rdb, w.keys(), r.ID, ms(now)).Result()
	if err != nil {
		return Quota{}, fmt.Errorf("limits: commit ask of account %d: %w", r.AccountID, err)
	}
	s, err := parseQuotaState(v)
	if err == nil && w.day.used == e.windows(r.AccountID, now).day.used {
		return s.remaining(r.Limits), nil
	}
	if err != nil && !errors.Is(err, errNeedsSeed) {
		return Quota{}, err
	}
	// The counters are gone, or the reservation belongs to a window that
	// has since ended: report the current windows.
	return e.remaining(ctx, r.AccountID, r.Limits, now)
}

// Release gives the reservation back without charging it: its Ask failed
// or was never started. Releasing twice, or after Commit, does nothing.
// Commit after Release is a caller bug: Postgres would count the Ask.
func (e *Engine) Release(ctx context.Context, r Reservation) error {
	if r.ID == "" {
		return nil
	}
	w := e.windows(r.AccountID, r.At)
	_, err := e.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.ZRem(ctx, w.day.held, r.ID)
		p.ZRem(ctx, w.month.held, r.ID)
		return nil
	})
	if err != nil {
		return fmt.Errorf("limits: release ask of account %d: %w", r.AccountID, err)
	}
	return nil
}

// Remaining reports the Ask quota the account has left in the current UTC
// day and month (Unlimited for a window the plan does not limit).
func (e *Engine) Remaining(ctx context.Context, accountID int64, l Limits) (daily, monthly int, err error) {
	q, err := e.remaining(ctx, accountID, l, e.now())
	return q.Daily, q.Monthly, err
}

func (e *Engine) remaining(ctx context.Context, accountID int64, l Limits, now time.Time) (Quota, error) {
	w := e.windows(accountID, now)
	for attempt := 0; ; attempt++ {
		v, err := quotaStateScript.Run(ctx, e.rdb, w.keys(), ms(now)).Result()
		if err != nil {
			return Quota{}, fmt.Errorf("limits: read quota of account %d: %w", accountID, err)
		}
		s, err := parseQuotaState(v)
		if err == nil {
			return s.remaining(l), nil
		}
		if !errors.Is(err, errNeedsSeed) || attempt >= 2 {
			return Quota{}, err
		}
		if err := e.seed(ctx, accountID, w, now); err != nil {
			return Quota{}, err
		}
	}
}
