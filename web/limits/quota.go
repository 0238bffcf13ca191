package limits

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
//
// A commit whose Redis half fails (Redis unreachable for a moment) leaves
// its reservation held, counted as taken until its lease lapses. A lapsed
// reservation is never left to silently stop counting: before any process
// reads or admits against a window holding one, it asks Postgres whether
// that Ask was recorded and settles it, by reservation id, with the same
// once-only step as a commit (recorded) or by moving it aside to the
// window's "lapsed" set (not recorded: its process died, or the Ask failed
// and could not be released). An Ask that overran its lease and commits
// later still finds itself there and is counted. Settling is atomic per
// id, so any number of processes may race to settle and commit the same
// reservation and it counts once.

// keySlack keeps a window's keys this long past the window's end, so a
// commit that lands just after midnight still finds its counters.
const keySlack = 24 * time.Hour

// lapseGrace keeps a lapsed reservation that Postgres had not recorded in
// its window's lapsed set (where it does not count) this long past its
// lease, so an Ask that overran its lease and then succeeds is still
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
	used, held, lapsed string
	end                time.Time
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
		day:   window{used: d + ":used", held: d + ":held", lapsed: d + ":lapsed", end: day.AddDate(0, 0, 1)},
		month: window{used: m + ":used", held: m + ":held", lapsed: m + ":lapsed", end: month.AddDate(0, 1, 0)},
	}
}

// keys are the KEYS of every quota script, in the order stateLua names.
func (w windows) keys() []string {
	return []string{w.day.used, w.day.held, w.month.used, w.month.held, w.day.lapsed, w.month.lapsed}
}

// ttl is how long, from now, a window's keys are kept.
func (w window) ttl(now time.Time) int64 {
	return (w.end.Sub(now) + keySlack).Milliseconds()
}

// quotaState is the state of both windows after the script ran.
type quotaState struct {
	dayUsed, dayHeld, monthUsed, monthHeld int
	// lapsed are reservations whose lease ran out while still held: until
	// they are settled (see settle) the counts above may be short.
	lapsed []string
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

// stateLua reads both windows into {dayUsed, dayHeld, monthUsed, monthHeld,
// lapsed ids...} with -1 for a used counter that does not exist; lapsed
// ids are held reservations whose lease has run out (at most fifty from
// each window). It is shared by the scripts below; KEYS are always
// dayUsed, dayHeld, monthUsed, monthHeld, dayLapsed, monthLapsed, and
// windows lists them by window.
const stateLua = `
local windows = {{used = KEYS[1], held = KEYS[2], aside = KEYS[5]}, {used = KEYS[3], held = KEYS[4], aside = KEYS[6]}}
local function lapsed(now, out)
  local seen = {}
  for _, w in ipairs(windows) do
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', w.held, '-inf', now, 'LIMIT', 0, 50)) do
      if not seen[id] then
        seen[id] = true
        out[#out + 1] = id
      end
    end
  end
  return out
end
local function state(now)
  local du = redis.call('GET', KEYS[1])
  local mu = redis.call('GET', KEYS[3])
  local dh = redis.call('ZCOUNT', KEYS[2], '(' .. now, '+inf')
  local mh = redis.call('ZCOUNT', KEYS[4], '(' .. now, '+inf')
  return lapsed(now, {tonumber(du) or -1, dh, tonumber(mu) or -1, mh})
end
`

// quotaStateScript reads the quota. ARGV now (ms).
var quotaStateScript = redis.NewScript(stateLua + `
return state(ARGV[1])
`)

// reserveScript admits one reservation if both windows have room. When a
// counter is missing it changes nothing and returns {-1}: the caller seeds
// from Postgres and tries again. When a held reservation has lapsed it
// changes nothing and returns {-2, ids...}: the caller settles them and
// tries again.
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
local gone = lapsed(now, {-2})
if #gone > 1 then
  return gone
end
for _, w in ipairs(windows) do
  redis.call('ZREMRANGEBYSCORE', w.aside, '-inf', cutoff)
end
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
// reservation is still held (lapsed or not) or was set aside as lapsed, it
// is removed and the counter incremented. A second commit, or one after
// settleScript counted it, finds nothing and changes nothing. A missing
// counter is left missing: it will be seeded from Postgres, which already
// has this Ask.
//
// ARGV id, now. Returns the state after the commit.
var commitScript = redis.NewScript(stateLua + `
local id = ARGV[1]
for _, w in ipairs(windows) do
  local found = redis.call('ZREM', w.held, id) + redis.call('ZREM', w.aside, id)
  if found > 0 and redis.call('EXISTS', w.used) == 1 then
    redis.call('INCR', w.used)
  end
end
return state(ARGV[2])
`)

// settleScript settles lapsed reservations. The first n ids were recorded
// in Postgres: each still held is committed as commitScript would. The
// others were not: each still held moves, with its score, to the window's
// lapsed set, where it no longer counts but a late commit still finds it.
// An id no longer held was committed or released meanwhile and is left
// alone.
//
// ARGV day ttl, month ttl, n, ids...
var settleScript = redis.NewScript(stateLua + `
windows[1].ttl, windows[2].ttl = ARGV[1], ARGV[2]
local n = tonumber(ARGV[3])
for a = 4, #ARGV do
  local id = ARGV[a]
  for _, w in ipairs(windows) do
    local score = redis.call('ZSCORE', w.held, id)
    if score then
      redis.call('ZREM', w.held, id)
      if a < 4 + n then
        if redis.call('EXISTS', w.used) == 1 then
          redis.call('INCR', w.used)
        end
      else
        redis.call('ZADD', w.aside, score, id)
        redis.call('PEXPIRE', w.aside, w.ttl)
      end
    end
  end
end
return 1
`)

// parseQuotaState reads stateLua's reply. It fails with errNeedsSeed when
// a counter is missing and errNeedsSettle when reservations have lapsed
// (the state then lists them).
func parseQuotaState(v any) (quotaState, error) {
	a, ok := v.([]any)
	if !ok || len(a) < 4 {
		return quotaState{}, fmt.Errorf("limits: unexpected quota reply %v", v)
	}
	r, err := ints(a[:4], 4)
	if err != nil {
		return quotaState{}, err
	}
	s := quotaState{dayUsed: int(r[0]), dayHeld: int(r[1]), monthUsed: int(r[2]), monthHeld: int(r[3])}
	if s.lapsed, err = strs(a[4:]); err != nil {
		return quotaState{}, err
	}
	switch {
	case s.dayUsed < 0 || s.monthUsed < 0:
		return s, errNeedsSeed
	case len(s.lapsed) > 0:
		return s, errNeedsSettle
	}
	return s, nil
}

func strs(a []any) ([]string, error) {
	out := make([]string, len(a))
	for i, x := range a {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("limits: unexpected script reply %v", a)
		}
		out[i] = s
	}
	return out, nil
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
		if a, ok := v.([]any); ok && len(a) > 1 && a[0] == int64(-2) {
			if attempt >= maxAttempts {
				return Reservation{}, fmt.Errorf("limits: reserve ask of account %d: lapsed reservations remain after settling", accountID)
			}
			ids, err := strs(a[1:])
			if err != nil {
				return Reservation{}, err
			}
			if err := e.settle(ctx, accountID, w, now, ids); err != nil {
				return Reservation{}, err
			}
			continue
		}
		res, err := ints(v, 1)
		if err != nil {
			return Reservation{}, err
		}
		if res[0] < 0 {
			if attempt >= maxAttempts {
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
		r.Left = quotaState{dayUsed: int(res[3]), dayHeld: int(res[4]), monthUsed: int(res[5]), monthHeld: int(res[6])}.remaining(l)
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

// maxAttempts bounds how often a read or reservation seeds or settles and
// tries again: once for missing counters, then for lapsed reservations,
// which come fifty at a time.
const maxAttempts = 4

// settle settles the lapsed reservations ids of the account's windows w:
// those Postgres has recorded are counted, the others set aside (see
// settleScript).
func (e *Engine) settle(ctx context.Context, accountID int64, w windows, now time.Time, ids []string) error {
	var recorded []string
	if e.usage != nil {
		var err error
		if recorded, err = e.usage.RecordedAsks(ctx, ids); err != nil {
			return fmt.Errorf("limits: settle lapsed asks of account %d: %w", accountID, err)
		}
	}
	args := []any{w.day.ttl(now), w.month.ttl(now), len(recorded)}
	for _, id := range recorded {
		args = append(args, id)
	}
	for _, id := range ids {
		if !slices.Contains(recorded, id) {
			args = append(args, id)
		}
	}
	if err := settleScript.Run(ctx, e.rdb, w.keys(), args...).Err(); err != nil {
		return fmt.Errorf("limits: settle lapsed asks of account %d: %w", accountID, err)
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
	if err != nil && !errors.Is(err, errNeedsSeed) && !errors.Is(err, errNeedsSettle) {
		return Quota{}, err
	}
	// The counters are gone, others' reservations have lapsed, or the
	// reservation belongs to a window that has since ended: report the
	// current windows.
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
		for _, k := range []string{w.day.held, w.month.held, w.day.lapsed, w.month.lapsed} {
			p.ZRem(ctx, k, r.ID)
		}
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
		switch {
		case err == nil:
			return s.remaining(l), nil
		case attempt >= maxAttempts:
			return Quota{}, fmt.Errorf("limits: read quota of account %d: %w", accountID, err)
		case errors.Is(err, errNeedsSeed):
			err = e.seed(ctx, accountID, w, now)
		case errors.Is(err, errNeedsSettle):
			err = e.settle(ctx, accountID, w, now, s.lapsed)
		}
		if err != nil {
			return Quota{}, err
		}
	}
}
