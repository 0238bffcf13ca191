package limits

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah"
)

// Slot is one admitted in-flight request. Release it when the request ends;
// if the process dies first, the slot lapses at its lease expiry.
type Slot struct {
	AccountID int64
	// ID is unique per Acquire; it is not the client's request id, which a
	// client could repeat to share a slot.
	ID      string
	Expires time.Time
	// InFlight is how many slots the account held once this one was taken.
	InFlight int
	// unlimited marks a slot that holds nothing: the plan has no limit.
	unlimited bool
}

// acquireScript is the per-account semaphore: a ZSET of slot ids scored by
// lease expiry (ms). Expired slots are dropped before counting, so a slot
// leaked by a crashed process frees itself. Taking an id that is already
// held only renews it, which makes the script safe to re-run.
//
// KEYS[1] slots; ARGV now, expiry, limit, id, key ttl (ms).
// Returns {admitted, in flight}.
var acquireScript = redis.NewScript(`
local key = KEYS[1]
local now, expiry, limit, id, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
local n = redis.call('ZCARD', key)
if not redis.call('ZSCORE', key, id) then
  if n >= limit then
    return {0, n}
  end
  n = n + 1
end
redis.call('ZADD', key, expiry, id)
if redis.call('PTTL', key) < ttl then
  redis.call('PEXPIRE', key, ttl)
end
return {1, n}
`)

// Acquire takes one of the account's l.ConcurrentRequests slots for the
// request running under ctx, leased until ctx's deadline plus the lease
// margin. When all slots are taken it returns a *selah.Error with code
// ECONCURRENCY and a RetryAfter of one second: leases are only a crash
// bound, and a running request usually ends long before its lease.
func (e *Engine) Acquire(ctx context.Context, accountID int64, l Limits) (Slot, error) {
	s, _, err := e.acquire(ctx, accountID, l, false)
	return s, err
}

// AcquireAndRead is Acquire that also reads the account's Ask quota in the
// same Redis round trip, so a caller can report every limit without another
// call. The quota is returned on refusal too.
func (e *Engine) AcquireAndRead(ctx context.Context, accountID int64, l Limits) (Slot, Quota, error) {
	return e.acquire(ctx, accountID, l, true)
}

func (e *Engine) acquire(ctx context.Context, accountID int64, l Limits, read bool) (Slot, Quota, error) {
	now := e.now()
	lease := e.lease(ctx)
	slot := Slot{AccountID: accountID, ID: newID("slot_"), Expires: now.Add(lease), unlimited: l.ConcurrentRequests < 0}
	take := l.ConcurrentRequests > 0
	key := e.key(accountID, "inflight")
	w := e.windows(accountID, now)

	var acq, qs *redis.Cmd
	if take || read {
		_, err := e.pipelined(ctx, []*redis.Script{acquireScript, quotaStateScript}, func(p redis.Pipeliner) []*redis.Cmd {
			var cmds []*redis.Cmd
			if take {
				acq = acquireScript.EvalSha(ctx, p, []string{key},
					ms(now), ms(slot.Expires), l.ConcurrentRequests, slot.ID, (lease + time.Minute).Milliseconds())
				cmds = append(cmds, acq)
			}
			if read {
				qs = quotaStateScript.EvalSha(ctx, p, w.keys(), ms(now))
				cmds = append(cmds, qs)
			}
			return cmds
		})
		if err != nil {
			return Slot{}, Quota{}, fmt.Errorf("limits: acquire slot of account %d: %w", accountID, err)
		}
	}

	var q Quota
	if read {
		st, err := parseQuotaState(qs.Val())
		switch {
		case err == nil:
			q = st.remaining(l)
		case errors.Is(err, errNeedsSeed) || errors.Is(err, errNeedsSettle):
			q, err = e.remaining(ctx, accountID, l, now)
		}
		if err != nil {
			if take {
				e.ReleaseSlot(context.WithoutCancel(ctx), slot)
			}
			return Slot{}, Quota{}, err
		}
	}

	if slot.unlimited {
		return slot, q, nil
	}
	if !take {
		return Slot{}, q, &selah.Error{Code: selah.ECONCURRENCY, Message: "Your plan allows no concurrent requests.", RetryAfter: 1}
	}
	r, err := ints(acq.Val(), 2)
	if err != nil {
		return Slot{}, q, err
	}
	if r[0] == 0 {
		return Slot{}, q, &selah.Error{
			Code:       selah.ECONCURRENCY,
			Message:    fmt.Sprintf("Too many concurrent requests: your plan allows %d at a time. Retry when a request has finished.", l.ConcurrentRequests),
			RetryAfter: 1,
		}
	}
	slot.InFlight = int(r[1])
	return slot, q, nil
}

// ReleaseSlot frees the slot. Releasing twice, or releasing the zero Slot,
// is harmless.
func (e *Engine) ReleaseSlot(ctx context.Context, s Slot) error {
	if s.ID == "" || s.unlimited {
		return nil
	}
	if err := e.rdb.ZRem(ctx, e.key(s.AccountID, "inflight"), s.ID).Err(); err != nil {
		return fmt.Errorf("limits: release slot of account %d: %w", s.AccountID, err)
	}
	return nil
}
