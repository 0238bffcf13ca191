package store

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/apikey"
)

// Key statuses as stored. Expiry is not a status: see APIKey.State.
const (
	KeyActive   = "active"
	KeyRevoked  = "revoked"
	KeyDisabled = "disabled"
	// KeyExpired is what APIKey.State reports for an active key past its
	// expiry; it is never stored.
	KeyExpired = "expired"
)

// MaxKeyNameLength bounds a key's name, in characters.
const MaxKeyNameLength = 100

// APIKey is a stored key. The key itself is never stored, only its SHA-256.
type APIKey struct {
	ID         string // public id, key_...
	AccountID  int64
	Name       string
	Prefix     string // display prefix, svc_live_AbCd…
	Test       bool
	Status     string // KeyActive, KeyRevoked or KeyDisabled
	CreatedAt  time.Time
	LastUsedAt *time.Time
	ExpiresAt  *time.Time
	RevokedAt  *time.Time
	// ReplacedBy is the public id of the key that rotation issued in place
	// of this one, or "".
	ReplacedBy string
}

// Expired reports whether the key has an expiry at or before now.
func (k APIKey) Expired(now time.Time) bool {
	return k.ExpiresAt != nil && !k.ExpiresAt.After(now)
}

// State is the key's effective state at now: its status, except that an
// active key past its expiry is KeyExpired.
func (k APIKey) State(now time.Time) string {
	if k.Status == KeyActive && k.Expired(now) {
		return KeyExpired
	}
	return k.Status
}

// KeyPrincipal is what authenticating a request needs: the key, its
// account and the account's plan.
type KeyPrincipal struct {
	Key     APIKey
	Account Account // Account.Plan holds the limits
}

// keyColumns and keyDest read a key aliased k, with its replacement
// LEFT JOINed as r.
const keyColumns = `k.public_id, k.account_id, k.name, k.prefix, k.test, k.status, k.created_at,
	k.last_used_at, k.expires_at, k.revoked_at, coalesce(r.public_id, '')`

func keyDest(k *APIKey) []any {
	return []any{&k.ID, &k.AccountID, &k.Name, &k.Prefix, &k.Test, &k.Status, &k.CreatedAt,
		&k.LastUsedAt, &k.ExpiresAt, &k.RevokedAt, &k.ReplacedBy}
}

// activeKeysSQL counts the keys that count against MaxActiveKeys: active,
// not expired, and not already replaced by rotation (a key in its rotation
// grace period is on its way out).
const activeKeysSQL = `
	SELECT count(*) FROM api_keys
	WHERE account_id = $1 AND status = 'active' AND replaced_by IS NULL
	  AND (expires_at IS NULL OR expires_at > now())`

// newKeySQL inserts a key and returns its internal id and the times as
// stored (microseconds).
const newKeySQL = `
	INSERT INTO api_keys (public_id, account_id, name, prefix, hash, test, expires_at)
	VALUES ($1, $2, $3, $4, $5, $6, $7)
	RETURNING id, created_at, expires_at`

func cleanKeyName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if utf8.RuneCountInString(name) > MaxKeyNameLength || !utf8.ValidString(name) ||
		strings.ContainsFunc(name, unicode.IsControl) {
		return "", selah.Errorf(selah.EINVALID, "A key name is at most %d printable characters.", MaxKeyNameLength)
	}
	return name, nil
}

// lockAccount locks the account row for the rest of tx, so that checks of
// its key count and the inserts that follow are atomic, and returns its
// status and the plan's key limit.
func lockAccount(ctx context.Context, tx pgx.Tx, accountID int64) (status string, maxKeys int, err error) {
	err = tx.QueryRow(ctx, `
		SELECT a.status, p.max_active_keys FROM accounts a JOIN plans p ON p.name = a.plan
		WHERE a.id = $1 FOR UPDATE OF a`, accountID).Scan(&status, &maxKeys)
	if err != nil {
		return "", 0, notFound(fmt.Sprintf("lock account %d", accountID), err)
	}
	return status, maxKeys, nil
}

// checkKeyLimit returns selah.ECONFLICT when one more key would exceed the
// account's plan. The account must be locked (lockAccount).
func checkKeyLimit(ctx context.Context, tx pgx.Tx, accountID int64, maxKeys int) error {
	var n int
	if err := tx.QueryRow(ctx, activeKeysSQL, accountID).Scan(&n); err != nil {
		return fmt.Errorf("store: count active keys: %w", err)
	}
	if n >= maxKeys {
		return selah.Errorf(selah.ECONFLICT,
			"This account already has %d active keys, the most its plan allows (%d). Revoke a key first.", n, maxKeys)
	}
	return nil
}

// insertKey generates a key and stores its hash.
func insertKey(ctx context.Context, tx pgx.Tx, k *APIKey) (key string, internalID int64, err error) {
	key, err = apikey.Generate(k.Test)
	if err != nil {
		return "", 0, err
	}
	k.ID, err = apikey.NewID()
	if err != nil {
		return "", 0, err
	}
	k.Prefix = apikey.DisplayPrefix(key)
	k.Status = KeyActive
	err = tx.QueryRow(ctx, newKeySQL, k.ID, k.AccountID, k.Name, k.Prefix, apikey.Hash(key), k.Test, k.ExpiresAt).
		Scan(&internalID, &k.CreatedAt, &k.ExpiresAt)
	if err != nil {
		return "", 0, fmt.Errorf("store: insert key: %w", err)
	}
	return key, internalID, nil
}

// CreateKey issues a new key for the account and returns it; this is the
// only time the key exists outside the caller. The plan's MaxActiveKeys is
// enforced atomically: the account row is locked for the transaction, so
// concurrent calls are serialized and never admit one key too many (the
// excess get selah.ECONFLICT). A disabled account gets
// selah.EACCOUNTDISABLED, an unknown one selah.ErrNotFound.
func (s *Store) CreateKey(ctx context.Context, accountID int64, name string, test bool, expiresAt *time.Time) (string, APIKey, error) {
	name, err := cleanKeyName(name)
	if err != nil {
		return "", APIKey{}, err
	}
	if expiresAt != nil {
		t := expiresAt.UTC()
		expiresAt = &t
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return "", APIKey{}, fmt.Errorf("store: create key: %w", err)
	}
	defer tx.Rollback(ctx)

	status, maxKeys, err := lockAccount(ctx, tx, accountID)
	if err != nil {
		return "", APIKey{}, err
	}
	if status != AccountActive {
		return "", APIKey{}, selah.Errorf(selah.EACCOUNTDISABLED, "This account is disabled.")
	}
	if expiresAt != nil {
		var past bool
		if err := tx.QueryRow(ctx, `SELECT $1::timestamptz <= now()`, expiresAt).Scan(&past); err != nil {
			return "", APIKey{}, fmt.Errorf("store: create key: %w", err)
		}
		if past {
			return "", APIKey{}, selah.Errorf(selah.EINVALID, "A key's expiry must be in the future.")
		}
	}
	if err := checkKeyLimit(ctx, tx, accountID, maxKeys); err != nil {
		return "", APIKey{}, err
	}
	k := APIKey{AccountID: accountID, Name: name, Test: test, ExpiresAt: expiresAt}
	key, _, err := insertKey(ctx, tx, &k)
	if err != nil {
		return "", APIKey{}, err
	}
	if err := tx.Commit(ctx); err != nil {
		return "", APIKey{}, fmt.Errorf("store: create key: commit: %w", err)
	}
	return key, k, nil
}

// ListKeys returns the account's keys, newest first, in every state.
func (s *Store) ListKeys(ctx context.Context, accountID int64) ([]APIKey, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT `+keyColumns+` FROM api_keys k LEFT JOIN api_keys r ON r.id = k.replaced_by
		WHERE k.account_id = $1 ORDER BY k.created_at DESC, k.id DESC`, accountID)
	if err != nil {
		return nil, fmt.Errorf("store: list keys: %w", err)
	}
	ks, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (APIKey, error) {
		var k APIKey
		err := r.Scan(keyDest(&k)...)
		return k, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: list keys: %w", err)
	}
	return ks, nil
}

// KeyByID returns the key with the public id, or selah.ErrNotFound.
func (s *Store) KeyByID(ctx context.Context, id string) (APIKey, error) {
	var k APIKey
	err := s.pool.QueryRow(ctx, `
		SELECT `+keyColumns+` FROM api_keys k LEFT JOIN api_keys r ON r.id = k.replaced_by
		WHERE k.public_id = $1`, id).Scan(keyDest(&k)...)
	if err != nil {
		return APIKey{}, notFound("key by id", err)
	}
	return k, nil
}

// LookupKey finds the key with the SHA-256 hash together with its account
// and plan, in one query: it runs on every uncached API request. It returns
// selah.ErrNotFound for an unknown hash and does not judge the key's state; the
// caller does, with its own clock.
func (s *Store) LookupKey(ctx context.Context, hash []byte) (KeyPrincipal, error) {
	var p KeyPrincipal
	err := s.pool.QueryRow(ctx, `
		SELECT `+keyColumns+`, `+accountColumns+`
		FROM api_keys k
		JOIN accounts a ON a.id = k.account_id
		JOIN plans p ON p.name = a.plan
		LEFT JOIN api_keys r ON r.id = k.replaced_by
		WHERE k.hash = $1`, hash).Scan(append(keyDest(&p.Key), accountDest(&p.Account)...)...)
	if err != nil {
		return KeyPrincipal{}, notFound("lookup key", err)
	}
	return p, nil
}

// TouchKey records that the key was used now. It writes at most once a
// minute per key, whichever process calls it, so that busy keys do not turn
// every request into a row update.
func (s *Store) TouchKey(ctx context.Context, id string) error {
	_, err := s.pool.Exec(ctx, `
		UPDATE api_keys SET last_used_at = now()
		WHERE public_id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`, id)
	if err != nil {
		return fmt.Errorf("store: touch key: %w", err)
	}
	return nil
}

// RevokeKey revokes the key, permanently: a revoked key is never accepted
// again and cannot be re-enabled (the schema refuses it too). Revoking a
// revoked key is not an error and keeps the first revocation time.
func (s *Store) RevokeKey(ctx context.Context, id string) error {
	tag, err := s.pool.Exec(ctx, `
		UPDATE api_keys SET status = 'revoked', revoked_at = coalesce(revoked_at, now())
		WHERE public_id = $1`, id)
	if err != nil {
		return fmt.Errorf("store: revoke key: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return selah.ErrNotFound
	}
	return nil
}

// DisableKey disables the key (an administrator's action; the key is refused
// with selah.EKEYDISABLED). Disabling a disabled key is not an error; a
// revoked key stays revoked and gives selah.ECONFLICT.
func (s *Store) DisableKey(ctx context.Context, id string) error {
	var status string
	err := s.pool.QueryRow(ctx, `
		WITH old AS (SELECT id, status FROM api_keys WHERE public_id = $1 FOR UPDATE),
		     upd AS (UPDATE api_keys k SET status = 'disabled' FROM old
		             WHERE k.id = old.id AND old.status <> 'revoked')
		SELECT status FROM old`, id).Scan(&status)
	if err != nil {
		return notFound("disable key", err)
	}
	if status == KeyRevoked {
		return selah.Errorf(selah.ECONFLICT, "Key %s is revoked; revocation is final.", id)
	}
	return nil
}

// RotateKey issues a new key in place of the key with the public id, in one
// transaction, and returns the new key. The new key has the old one's name
// and mode (live or test) and, if the old key had an expiry, the same
// lifetime counted from now (a 30-day key rotates into a 30-day key).
//
// The old key:
//   - grace <= 0: is revoked at once;
//   - grace > 0: stays usable until now+grace (or its own earlier expiry)
//     and is then refused as expired (selah.EKEYEXPIRED), so deployments
//     can switch over without downtime. It is not revoked, so it can still
//     be revoked explicitly during the grace period.
//
// Either way it records the new key in ReplacedBy and stops counting toward
// MaxActiveKeys, so rotating at the limit works. Rotating a revoked key
// issues a replacement and counts against the limit like CreateKey. These
// give selah.ECONFLICT: a key already rotated (rotate its replacement), and
// a disabled key (disabling is an administrator's decision that rotation
// must not undo).
func (s *Store) RotateKey(ctx context.Context, id string, grace time.Duration) (string, APIKey, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return "", APIKey{}, fmt.Errorf("store: rotate key: %w", err)
	}
	defer tx.Rollback(ctx)

	var (
		old       APIKey
		oldID     int64
		lifetime  *time.Duration
		createdAt time.Time
	)
	err = tx.QueryRow(ctx, `
		SELECT id, account_id, name, test, status, created_at, expires_at
		FROM api_keys WHERE public_id = $1`, id).
		Scan(&oldID, &old.AccountID, &old.Name, &old.Test, &old.Status, &createdAt, &old.ExpiresAt)
	if err != nil {
		return "", APIKey{}, notFound("rotate key", err)
	}
	// Lock the account before the key, in the same order as CreateKey.
	status, maxKeys, err := lockAccount(ctx, tx, old.AccountID)
	if err != nil {
		return "", APIKey{}, err
	}
	// Re-read under the lock: a concurrent revoke or rotation may have won.
	err = tx.QueryRow(ctx, `
		SELECT k.status, k.expires_at, coalesce(r.public_id, '')
		FROM api_keys k LEFT JOIN api_keys r ON r.id = k.replaced_by
		WHERE k.id = $1 FOR UPDATE OF k`, oldID).
		Scan(&old.Status, &old.ExpiresAt, &old.ReplacedBy)
	if err != nil {
		return "", APIKey{}, fmt.Errorf("store: rotate key: lock: %w", err)
	}
	if status != AccountActive {
		return "", APIKey{}, selah.Errorf(selah.EACCOUNTDISABLED, "This account is disabled.")
	}
	if old.ReplacedBy != "" {
		return "", APIKey{}, selah.Errorf(selah.ECONFLICT, "Key %s was already rotated; its replacement is %s.", id, old.ReplacedBy)
	}
	switch old.Status {
	case KeyDisabled:
		return "", APIKey{}, selah.Errorf(selah.ECONFLICT, "Key %s is disabled by an administrator and cannot be rotated.", id)
	case KeyRevoked:
		if err := checkKeyLimit(ctx, tx, old.AccountID, maxKeys); err != nil {
			return "", APIKey{}, err
		}
	}
	if old.ExpiresAt != nil {
		d := old.ExpiresAt.Sub(createdAt)
		lifetime = &d
	}

	k := APIKey{AccountID: old.AccountID, Name: old.Name, Test: old.Test}
	if lifetime != nil {
		var exp time.Time
		if err := tx.QueryRow(ctx, `SELECT now() + $1::interval`, *lifetime).Scan(&exp); err != nil {
			return "", APIKey{}, fmt.Errorf("store: rotate key: %w", err)
		}
		exp = exp.UTC()
		k.ExpiresAt = &exp
	}
	key, newID, err := insertKey(ctx, tx, &k)
	if err != nil {
		return "", APIKey{}, err
	}
	switch {
	case old.Status != KeyActive:
		_, err = tx.Exec(ctx, `UPDATE api_keys SET replaced_by = $2 WHERE id = $1`, oldID, newID)
	case grace <= 0:
		_, err = tx.Exec(ctx, `
			UPDATE api_keys SET status = 'revoked', revoked_at = now(), replaced_by = $2
			WHERE id = $1`, oldID, newID)
	default:
		_, err = tx.Exec(ctx, `
			UPDATE api_keys SET replaced_by = $2,
			       expires_at = least(coalesce(expires_at, 'infinity'), now() + $3::interval)
			WHERE id = $1`, oldID, newID, grace)
	}
	if err != nil {
		return "", APIKey{}, fmt.Errorf("store: rotate key: retire old key: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return "", APIKey{}, fmt.Errorf("store: rotate key: commit: %w", err)
	}
	return key, k, nil
}

// EnableKey makes a disabled key usable again, within the plan's limit of
// active keys (selah.ECONFLICT beyond it). Enabling an active key is a
// no-op; a revoked key stays revoked (selah.ECONFLICT): revocation is
// final, disabling is not.
func (s *Store) EnableKey(ctx context.Context, id string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var accountID int64
		var status string
		err := tx.QueryRow(ctx, `SELECT account_id, status FROM api_keys WHERE public_id = $1`, id).Scan(&accountID, &status)
		if err != nil {
			return notFound("enable key", err)
		}
		if _, maxKeys, err := lockAccount(ctx, tx, accountID); err != nil {
			return err
		} else if err := tx.QueryRow(ctx, `SELECT status FROM api_keys WHERE public_id = $1 FOR UPDATE`, id).Scan(&status); err != nil {
			return notFound("enable key", err)
		} else if status == KeyRevoked {
			return selah.Errorf(selah.ECONFLICT, "Key %s is revoked; revocation is final. Create a new key instead.", id)
		} else if status != KeyDisabled {
			return nil
		} else if err := checkKeyLimit(ctx, tx, accountID, maxKeys); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE api_keys SET status = 'active' WHERE public_id = $1`, id); err != nil {
			return fmt.Errorf("store: enable key: %w", err)
		}
		return nil
	})
}
