package limits

import (
	"context"
	"fmt"
	"time"
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

// The slots of an account are a ZSET of slot ids scored by lease expiry
// (ms), taken by admitScript. Expired slots are dropped before counting,
// so a slot leaked by a crashed process frees itself.

// Acquire takes one of the account's l.ConcurrentRequests slots for the
// request running under ctx, leased until ctx's deadline plus the lease
// margin: Admit's slot step alone. When all slots are taken it returns a
// *selah.Error with code ECONCURRENCY and a RetryAfter of one second:
// leases are only a crash bound, and a running request usually ends long
// before its lease.
func (e *Engine) Acquire(ctx context.Context, accountID int64, l Limits) (Slot, error) {
	a, err := e.admit(ctx, accountID, l, stepSlot)
	return a.Slot, err
}

// AcquireAndRead is Acquire that also reads the account's Ask quota in the
// same Redis round trip (Admit without the rate step). The quota is
// returned on refusal too.
func (e *Engine) AcquireAndRead(ctx context.Context, accountID int64, l Limits) (Slot, Quota, error) {
	a, err := e.admit(ctx, accountID, l, stepSlot|stepQuota)
	return a.Slot, a.Quota, err
}

// ReleaseSlot frees the slot. Releasing twice, or releasing the zero Slot,
// is harmless.
func (e *Engine) ReleaseSlot(ctx context.Context, s Slot) error {
	if s.ID == "" || s.unlimited {
		return nil
	}
	if err := e.hot.ZRem(ctx, e.key(s.AccountID, "inflight"), s.ID).Err(); err != nil {
		return fmt.Errorf("limits: release slot of account %d: %w", s.AccountID, err)
	}
	return nil
}
