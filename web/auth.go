package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/apikey"
	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/web/reqlog"
)

// Principal is the authenticated caller of an API request.
type Principal struct {
	AccountID int64
	KeyID     string // public id (key_...), never the key
	Test      bool   // a svc_test_ key
	Plan      store.Plan
}

const localPrincipal = "principal"

// PrincipalOf returns the caller authenticated by the auth middleware, or
// nil on routes without it.
func PrincipalOf(c *fiber.Ctx) *Principal {
	p, _ := c.Locals(localPrincipal).(*Principal)
	return p
}

const (
	// keyCacheTTL bounds how long a key lookup is reused. Every web process
	// caches on its own, and no entry outlives 500 ms, so a revoke, disable,
	// plan change or account disable takes effect on every process within
	// one second of the commit without any cross-process invalidation.
	keyCacheTTL = 500 * time.Millisecond
	// keyCacheMax bounds the cache's memory (an entry is a few hundred
	// bytes). Unknown keys are cached too, so that one bad key sent in a loop
	// costs one query per TTL; anyone can mint keys with valid checksums, so
	// the bound matters.
	keyCacheMax = 10_000
	// touchEvery is how often last_used_at is written per key at most.
	touchEvery = time.Minute
	// maxTouches bounds the concurrent last_used_at writes; beyond it a
	// touch is dropped and retried by a later request.
	maxTouches = 4
	// touchTimeout bounds one last_used_at write.
	touchTimeout = 5 * time.Second
)

var errInvalidKey = selah.Errorf(selah.EINVALIDKEY, "The API key is not valid. Check that it was copied completely.")

// authenticate is the first middleware of every authenticated API route. It
// reads "Authorization: Bearer <key>", refuses malformed keys and keys with
// a bad checksum without any cache or database access, looks the key up by
// its SHA-256 (cached per process for keyCacheTTL), judges its state with
// the server's clock, and stores the Principal for the handlers.
func (s *Server) authenticate(c *fiber.Ctx) error {
	key, err := bearerToken(c.Get(fiber.HeaderAuthorization))
	if err != nil {
		return err
	}
	if _, err := apikey.Parse(key); err != nil {
		return errInvalidKey
	}
	hash := [32]byte(apikey.Hash(key))
	kp, cached := s.keys.get(hash)
	if !cached {
		// Every uncached key costs a Postgres lookup; a client that has
		// sent too many unknown keys is refused before it (issue 14: a
		// flood of made-up keys slowed everyone's valid ones).
		if err := s.badKeyThrottle(c, 0); err != nil {
			return err
		}
		if kp, err = s.lookupKey(c.UserContext(), hash); err != nil {
			return err
		}
	}
	if kp == nil {
		if err := s.badKeyThrottle(c, 1); err != nil {
			return err
		}
		return errInvalidKey
	}
	now := s.now()
	if err := refusal(kp, now); err != nil {
		reqlog.From(c).Debug("api key refused", slog.String("keyId", kp.Key.ID), slog.String("code", selah.ErrorCode(err)))
		return err
	}
	c.Locals(localPrincipal, &Principal{
		AccountID: kp.Account.ID,
		KeyID:     kp.Key.ID,
		Test:      kp.Key.Test,
		Plan:      kp.Account.Plan,
	})
	reqlog.With(c, slog.String("keyId", kp.Key.ID), slog.Int64("accountId", kp.Account.ID))
	c.SetUserContext(jobs.WithScope(c.UserContext(), "acct"+strconv.FormatInt(kp.Account.ID, 10)))
	s.touches.touch(kp.Key.ID, kp.Key.LastUsedAt, now)
	return c.Next()
}

// Unknown API keys per client address: a burst, then one a second.
const (
	badKeysPerMinute = 60
	badKeysBurst     = 30
)

// badKeyThrottle takes n tokens (0 only looks) of the client address's
// unknown-key bucket and refuses with 429 rate_limited when it is empty.
// If Redis cannot be asked the request goes on: the key lookup itself
// still works, and the API's own limits fail closed.
func (s *Server) badKeyThrottle(c *fiber.Ctx, n int) error {
	ok, retry, err := s.limits.BucketN(c.UserContext(), throttleName("badkey", c.IP()), badKeysPerMinute, badKeysBurst, n)
	if err != nil {
		reqlog.From(c).Warn("unknown-key throttle unavailable", slog.String("error", err.Error()))
		return nil
	}
	if ok {
		return nil
	}
	return &selah.Error{Code: selah.ERATELIMITED, RetryAfter: max(1, int((retry+time.Second-1)/time.Second)),
		Message: "Too many requests with unknown API keys from your address. Check the key and retry later."}
}

// bearerToken returns the token of an Authorization header; the scheme is
// case-insensitive (RFC 9110).
func bearerToken(h string) (string, error) {
	h = strings.TrimSpace(h)
	if h == "" {
		return "", selah.Errorf(selah.EMISSINGKEY, "An API key is required: send Authorization: Bearer <API key>.")
	}
	scheme, token, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", selah.Errorf(selah.EINVALIDKEY, "The Authorization header must be: Bearer <API key>.")
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return "", selah.Errorf(selah.EMISSINGKEY, "An API key is required: send Authorization: Bearer <API key>.")
	}
	return token, nil
}

// refusal returns why the key may not be used at now, or nil.
func refusal(kp *store.KeyPrincipal, now time.Time) error {
	switch {
	case kp.Key.Status == store.KeyRevoked:
		return selah.Errorf(selah.EKEYREVOKED, "This API key has been revoked; revocation is permanent. Create a new key at /settings/api.")
	case kp.Key.Status != store.KeyActive:
		return selah.Errorf(selah.EKEYDISABLED, "This API key has been disabled.")
	case kp.Key.Expired(now):
		return selah.Errorf(selah.EKEYEXPIRED, "This API key has expired. Create a new key at /settings/api.")
	case kp.Account.Status != store.AccountActive:
		return selah.Errorf(selah.EACCOUNTDISABLED, "The account this API key belongs to is disabled.")
	}
	return nil
}

// lookupKey returns the key with the hash, nil for an unknown key, through
// the cache.
func (s *Server) lookupKey(ctx context.Context, hash [32]byte) (*store.KeyPrincipal, error) {
	if kp, ok := s.keys.get(hash); ok {
		return kp, nil
	}
	kp, err := s.store.LookupKey(ctx, hash[:])
	switch {
	case errors.Is(err, selah.ErrNotFound):
		s.keys.put(hash, nil)
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("web: authenticate: %w", err)
	}
	s.keys.put(hash, &kp)
	return &kp, nil
}

// keyCache is a small per-process cache of key lookups, keyed by the key's
// SHA-256 (never the key). It caches what the database said, not the
// verdict: expiry is judged on every request with the server's clock.
type keyCache struct {
	ttl time.Duration
	max int
	now func() time.Time // real time: the TTL is a propagation bound, not business time

	mu sync.Mutex
	m  map[[32]byte]keyCacheEntry
}

type keyCacheEntry struct {
	kp    *store.KeyPrincipal // nil: no such key; shared, never modified
	until time.Time
}

func newKeyCache(ttl time.Duration, max int) *keyCache {
	return &keyCache{ttl: ttl, max: max, now: time.Now, m: make(map[[32]byte]keyCacheEntry)}
}

func (kc *keyCache) get(h [32]byte) (*store.KeyPrincipal, bool) {
	kc.mu.Lock()
	defer kc.mu.Unlock()
	e, ok := kc.m[h]
	if !ok {
		return nil, false
	}
	if !kc.now().Before(e.until) {
		delete(kc.m, h)
		return nil, false
	}
	return e.kp, true
}

// put stores a lookup. When the cache is full it first drops expired
// entries. A known key then displaces an unknown one, so a flood of
// made-up keys can never keep valid keys out of the cache; an unknown key
// is simply not cached when there is still no room.
func (kc *keyCache) put(h [32]byte, kp *store.KeyPrincipal) {
	kc.mu.Lock()
	defer kc.mu.Unlock()
	now := kc.now()
	if _, ok := kc.m[h]; !ok && len(kc.m) >= kc.max {
		for k, e := range kc.m {
			if !now.Before(e.until) {
				delete(kc.m, k)
			}
		}
		if len(kc.m) >= kc.max && kp != nil {
			for k, e := range kc.m {
				if e.kp == nil {
					delete(kc.m, k)
					break
				}
			}
		}
		if len(kc.m) >= kc.max {
			return
		}
	}
	kc.m[h] = keyCacheEntry{kp: kp, until: now.Add(kc.ttl)}
}

func (kc *keyCache) len() int {
	kc.mu.Lock()
	defer kc.mu.Unlock()
	return len(kc.m)
}

// keyToucher writes api_keys.last_used_at off the request path: at most once
// per touchEvery per key from this process, by at most maxTouches goroutines
// at a time; a touch that finds them all busy is dropped (a later request
// retries it).
type keyToucher struct {
	st  *store.Store
	log *slog.Logger
	sem chan struct{}

	mu   sync.Mutex
	last map[string]time.Time // key id -> when this process last wrote it
}

func newKeyToucher(st *store.Store, log *slog.Logger) *keyToucher {
	return &keyToucher{st: st, log: log, sem: make(chan struct{}, maxTouches), last: make(map[string]time.Time)}
}

func (t *keyToucher) touch(id string, lastUsed *time.Time, now time.Time) {
	if lastUsed != nil && now.Sub(*lastUsed) < touchEvery {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if at, ok := t.last[id]; ok && now.Sub(at) < touchEvery {
		return
	}
	select {
	case t.sem <- struct{}{}:
	default:
		return
	}
	if len(t.last) >= keyCacheMax {
		for k, at := range t.last {
			if now.Sub(at) >= touchEvery {
				delete(t.last, k)
			}
		}
	}
	t.last[id] = now
	go func() {
		defer func() { <-t.sem }()
		ctx, cancel := context.WithTimeout(context.Background(), touchTimeout)
		defer cancel()
		if err := t.st.TouchKey(ctx, id); err != nil {
			t.log.Warn("record key use", slog.String("keyId", id), slog.String("error", err.Error()))
		}
	}()
}
