package limits

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah"
)

// Admission is what the limits said to one API request: where it stands
// against the per-minute limit, the concurrency slot it holds (release it
// when the request ends), and the Ask quota left, for the headers.
type Admission struct {
	Rate  Rate
	Slot  Slot
	Quota Quota
}

// rateKeyPrefix is redis_rate's prefix of its keys. The per-minute limit
// keeps the key (and the GCRA) redis_rate used for it before Admit, so
// processes of the previous release and of this one count against the
// same state while a deploy rolls.
const rateKeyPrefix = "rate:"

// admitScript is the whole limit check of an API request in one round
// trip: the per-minute GCRA, then, if that let the request through, one
// concurrency slot, and the Ask quota read for the headers. Every step
// runs in one script, so limits stay exact across processes.
//
// The GCRA is redis_rate's allowN (burst = rate = N a minute) on the Redis
// server's clock, which all web processes share. Slot and quota use the
// engine's clock, passed in, as Acquire and the quota scripts always did.
//
// KEYS dayUsed, dayHeld, monthUsed, monthHeld, dayLapsed, monthLapsed (as
// stateLua), rpm, inflight. ARGV now (ms), rate (N; 0: not counted), cost
// (1, or 0 to read without counting), slot mode ("take", "count",
// "none"), slot expiry (ms), slot id, slot limit, inflight key ttl (ms),
// read quota ("1" or "0").
//
// Returns {allowed, remaining, retry after s, reset after s, slot taken,
// in flight, quota state or 0}. A taken id that is already held is only
// renewed, so the script is safe to run twice.
var admitScript = redis.NewScript(`redis.replicate_commands()
` + stateLua + `
local now, rate, cost, mode = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local allowed, remaining, retry, reset = 1, -1, '-1', '0'
if rate > 0 then
  local interval = 60 / rate
  local burst = interval * rate
  local t = redis.call('TIME')
  local clock = (t[1] - 1483228800) + (t[2] / 1000000)
  local tat = math.max(tonumber(redis.call('GET', KEYS[7]) or clock), clock)
  local newTat = tat + interval * cost
  local diff = clock - (newTat - burst)
  if diff < 0 then
    allowed, remaining, retry, reset = 0, 0, tostring(-diff), tostring(tat - clock)
  else
    allowed, remaining, reset = cost, diff / interval, tostring(newTat - clock)
    if newTat - clock > 0 then
      redis.call('SET', KEYS[7], newTat, 'EX', math.ceil(newTat - clock))
    end
  end
end
local taken, n = 0, 0
if mode == 'take' and allowed > 0 then
  local key, limit, id = KEYS[8], tonumber(ARGV[7]), ARGV[6]
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  n = redis.call('ZCARD', key)
  local held = redis.call('ZSCORE', key, id)
  if held or n < limit then
    if not held then n = n + 1 end
    redis.call('ZADD', key, ARGV[5], id)
    if redis.call('PTTL', key) < tonumber(ARGV[8]) then
      redis.call('PEXPIRE', key, ARGV[8])
    end
    taken = 1
  end
elseif mode == 'count' then
  n = redis.call('ZCOUNT', KEYS[8], '(' .. now, '+inf')
end
local quota = 0
if ARGV[9] == '1' then
  quota = state(now)
end
return {allowed, remaining, retry, reset, taken, n, quota}
`)

// admitArgs say which steps of admitScript run.
type admitArgs struct {
	rate  int    // requests per minute counted against; 0: not counted
	cost  int    // 1 counts the request, 0 only reads the rate
	slot  string // "take", "count" or "none"
	limit int    // slots the account may hold, when taking one
	quota bool   // read the Ask quota
}

// admitReply is admitScript's reply.
type admitReply struct {
	allowed, remaining int
	retry, reset       time.Duration
	taken              bool
	inFlight           int
	quota              any
}

func (e *Engine) runAdmit(ctx context.Context, accountID int64, now time.Time, slot Slot, lease time.Duration, a admitArgs) (admitReply, error) {
	w := e.windows(accountID, now)
	keys := append(w.keys(), rateKeyPrefix+e.key(accountID, "rpm"), e.key(accountID, "inflight"))
	read := "0"
	if a.quota {
		read = "1"
	}
	v, err := admitScript.Run(ctx, e.hot, keys, ms(now), a.rate, a.cost, a.slot, ms(slot.Expires), slot.ID,
		a.limit, (lease + time.Minute).Milliseconds(), read).Result()
	if err != nil {
		return admitReply{}, err
	}
	return parseAdmit(v)
}

func parseAdmit(v any) (admitReply, error) {
	a, ok := v.([]any)
	if !ok || len(a) != 7 {
		return admitReply{}, fmt.Errorf("limits: unexpected admit reply %v", v)
	}
	head, err := ints([]any{a[0], a[1], a[4], a[5]}, 4)
	if err != nil {
		return admitReply{}, err
	}
	secs := func(x any) (time.Duration, error) {
		s, ok := x.(string)
		f, err := strconv.ParseFloat(s, 64)
		if !ok || err != nil {
			return 0, fmt.Errorf("limits: unexpected admit reply %v", v)
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	r := admitReply{allowed: int(head[0]), remaining: int(head[1]), taken: head[2] == 1, inFlight: int(head[3]), quota: a[6]}
	if r.retry, err = secs(a[2]); err != nil {
		return admitReply{}, err
	}
	if r.reset, err = secs(a[3]); err != nil {
		return admitReply{}, err
	}
	return r, nil
}

// steps of an admission; Admit runs them all.
type steps uint8

const (
	stepRate steps = 1 << iota
	stepSlot
	stepQuota
)

// Admit runs the whole limit check of an API request in one Redis round
// trip: it counts the request against l.RequestsPerMinute, then, if that
// allowed it, takes one of the account's l.ConcurrentRequests slots, and
// reads the Ask quota left. Release the slot with ReleaseSlot when the
// request ends.
//
// A refusal is a *selah.Error with RetryAfter set, returned with the
// Admission for the headers: ERATELIMITED (the request was not counted
// toward a slot; RetryAfter is the time to the next request slot) or
// ECONCURRENCY (all slots taken; RetryAfter one second). Any other error
// means Redis or Postgres could not be asked.
//
// The quota usually comes from the same round trip; when its counters
// must be seeded from Postgres or lapsed reservations settled, Admit does
// that first, as Remaining does.
func (e *Engine) Admit(ctx context.Context, accountID int64, l Limits) (Admission, error) {
	return e.admit(ctx, accountID, l, stepRate|stepSlot|stepQuota)
}

func (e *Engine) admit(ctx context.Context, accountID int64, l Limits, do steps) (Admission, error) {
	now := e.now()
	lease := e.lease(ctx)
	slot := Slot{AccountID: accountID, ID: newID("slot_"), Expires: now.Add(lease), unlimited: l.ConcurrentRequests < 0}
	adm := Admission{Rate: Rate{Limit: Unlimited, Allowed: true}, Quota: Quota{Daily: Unlimited, Monthly: Unlimited}}
	args := admitArgs{cost: 1, slot: "none", limit: l.ConcurrentRequests, quota: do&stepQuota != 0}

	var refusal error
	if do&stepRate != 0 {
		switch n := l.RequestsPerMinute; {
		case n == 0:
			adm.Rate = Rate{Limit: 0, RetryAfter: time.Minute, ResetAfter: time.Minute}
			refusal = &selah.Error{Code: selah.ERATELIMITED, Message: "Your plan allows no API requests.", RetryAfter: adm.Rate.RetryAfterSeconds()}
		case n > 0:
			args.rate = n
		}
	}
	if do&stepSlot != 0 && refusal == nil && l.ConcurrentRequests > 0 {
		args.slot = "take"
	}

	var reply admitReply
	if args.rate > 0 || args.slot != "none" || args.quota {
		var err error
		if reply, err = e.runAdmit(ctx, accountID, now, slot, lease, args); err != nil {
			return Admission{}, fmt.Errorf("limits: admit request of account %d: %w", accountID, err)
		}
	}

	if args.rate > 0 {
		adm.Rate = Rate{Limit: args.rate, Allowed: reply.allowed > 0, Remaining: reply.remaining, ResetAfter: max(reply.reset, 0)}
		if !adm.Rate.Allowed {
			adm.Rate.RetryAfter = max(reply.retry, 0)
			refusal = &selah.Error{
				Code:       selah.ERATELIMITED,
				Message:    fmt.Sprintf("Rate limit of %d requests per minute exceeded. Retry after %d s.", args.rate, adm.Rate.RetryAfterSeconds()),
				RetryAfter: adm.Rate.RetryAfterSeconds(),
			}
		}
	}
	if do&stepSlot != 0 && refusal == nil {
		switch {
		case slot.unlimited:
			adm.Slot = slot
		case l.ConcurrentRequests == 0:
			refusal = &selah.Error{Code: selah.ECONCURRENCY, Message: "Your plan allows no concurrent requests.", RetryAfter: 1}
		case reply.taken:
			slot.InFlight = reply.inFlight
			adm.Slot = slot
		default:
			refusal = &selah.Error{
				Code:       selah.ECONCURRENCY,
				Message:    fmt.Sprintf("Too many concurrent requests: your plan allows %d at a time. Retry when a request has finished.", l.ConcurrentRequests),
				RetryAfter: 1,
			}
		}
	}

	if args.quota {
		q, err := e.quotaOf(ctx, accountID, l, now, reply.quota)
		if err != nil {
			if reply.taken {
				e.ReleaseSlot(context.WithoutCancel(ctx), adm.Slot)
			}
			var rate *selah.Error
			if errors.As(refusal, &rate) && rate.Code == selah.ERATELIMITED {
				// Refused anyway: the 429 goes out without quota headers
				// rather than as a 503.
				return adm, refusal
			}
			return Admission{}, err
		}
		adm.Quota = q
	}
	return adm, refusal
}

// quotaOf turns the quota state read by admitScript into the quota left,
// seeding or settling first when the state says so.
func (e *Engine) quotaOf(ctx context.Context, accountID int64, l Limits, now time.Time, state any) (Quota, error) {
	st, err := parseQuotaState(state)
	switch {
	case err == nil:
		return st.remaining(l), nil
	case errors.Is(err, errNeedsSeed) || errors.Is(err, errNeedsSettle):
		return e.remaining(ctx, accountID, l, now)
	}
	return Quota{}, err
}

// AdmitCommand is the command Admit sends for an account on l, as
// redis-benchmark takes it: EVALSHA, the script's SHA1, the keys and the
// arguments, with a fixed slot id (taking a held id only renews it) and a
// slot lease of a day. selah bench measures Redis on it, the floor of what
// the chain can cost, after one Admit of the account has loaded the script
// and seeded its quota.
func (e *Engine) AdmitCommand(accountID int64, l Limits) []string {
	now := e.now()
	w := e.windows(accountID, now)
	keys := append(w.keys(), rateKeyPrefix+e.key(accountID, "rpm"), e.key(accountID, "inflight"))
	cmd := append([]string{"EVALSHA", admitScript.Hash(), strconv.Itoa(len(keys))}, keys...)
	return append(cmd, ms(now), strconv.Itoa(max(l.RequestsPerMinute, 0)), "1", "take", ms(now.Add(24*time.Hour)),
		"slot_bench", strconv.Itoa(l.ConcurrentRequests), strconv.FormatInt((25*time.Hour).Milliseconds(), 10), "1")
}
