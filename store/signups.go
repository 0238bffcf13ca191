package store

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/selahdev/selah"
)

// Website sign-up with e-mail verification (issue 14). A sign-up never
// tells whether its address already has an account: the web layer answers
// every outcome alike and says the rest by e-mail, to the address's owner
// only. A new account is unverified until a link sent to its address is
// followed; only the SHA-256 of a link's token is stored, as for sessions.

// SignUpOutcome says what a sign-up found at its address.
type SignUpOutcome int

const (
	// SignUpCreated: a new, unverified account, with a link (Token).
	SignUpCreated SignUpOutcome = iota + 1
	// SignUpPending: the address's account is not verified yet. It now
	// has the password just chosen, and another link (Token) beside any
	// earlier ones.
	SignUpPending
	// SignUpExisting: the address belongs to a verified or disabled
	// account, left as it was; no link.
	SignUpExisting
)

// SignUp is what Store.SignUp did.
type SignUp struct {
	Outcome SignUpOutcome
	Account Account
	// Token goes into the verification link; this is the only time it
	// exists outside the e-mail. Empty for SignUpExisting.
	Token string
}

// verificationHash is the stored form of a link's token.
func verificationHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// SignUp records a website sign-up for email with the argon2id
// passwordHash, at now (the caller's clock), with a link valid for ttl. A
// free, unverified account is created when the address has none; see
// SignUpOutcome for the rest. The account's expired links are deleted on
// the way, which keeps the table bounded without a cleanup job. A bad email
// is selah.EINVALID.
func (s *Store) SignUp(ctx context.Context, email, passwordHash string, now time.Time, ttl time.Duration) (SignUp, error) {
	email = NormalizeEmail(email)
	if !validEmail(email) {
		return SignUp{}, selah.Errorf(selah.EINVALID, "That is not a valid email address.")
	}
	if passwordHash == "" {
		return SignUp{}, errors.New("store: sign up: no password hash")
	}
	token := selah.NewToken()
	var su SignUp
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var id int64
		su.Outcome = SignUpCreated
		// ON CONFLICT waits for a concurrent sign-up of the same address
		// to commit, so exactly one of them creates the account.
		err := tx.QueryRow(ctx, `
			INSERT INTO accounts (email, password_hash) VALUES ($1, $2)
			ON CONFLICT (email) DO NOTHING
			RETURNING id`, email, passwordHash).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			su.Outcome = SignUpPending
			err = tx.QueryRow(ctx, `
				UPDATE accounts SET password_hash = $2
				WHERE email = $1 AND verified_at IS NULL AND status = 'active'
				RETURNING id`, email, passwordHash).Scan(&id)
		}
		if errors.Is(err, pgx.ErrNoRows) {
			su.Outcome = SignUpExisting
			err = tx.QueryRow(ctx, `SELECT id FROM accounts WHERE email = $1`, email).Scan(&id)
		}
		if err != nil {
			return err
		}
		if su.Outcome != SignUpExisting {
			_, err := tx.Exec(ctx, `
				WITH purged AS (DELETE FROM email_verifications WHERE account_id = $2 AND expires_at <= $4)
				INSERT INTO email_verifications (token_hash, account_id, password_hash, created_at, expires_at)
				VALUES ($1, $2, $3, $4, $5)`,
				verificationHash(token), id, passwordHash, now, now.Add(ttl))
			if err != nil {
				return err
			}
			su.Token = token
		}
		return tx.QueryRow(ctx, `
			SELECT `+accountColumns+` FROM accounts a JOIN plans p ON p.name = a.plan
			WHERE a.id = $1`, id).Scan(accountDest(&su.Account)...)
	})
	if err != nil {
		return SignUp{}, fmt.Errorf("store: sign up: %w", err)
	}
	return su, nil
}

// VerificationPending reports whether token names a link that can still
// be followed at now: nil if so, selah.ErrNotFound if it is unknown, used or
// expired. It changes nothing (the page a link opens asks to confirm).
func (s *Store) VerificationPending(ctx context.Context, token string, now time.Time) error {
	var one int
	err := s.pool.QueryRow(ctx, `
		SELECT 1 FROM email_verifications WHERE token_hash = $1 AND expires_at > $2`,
		verificationHash(token), now).Scan(&one)
	if err != nil {
		return notFound("verification pending", err)
	}
	return nil
}

// VerifyEmail follows a link at now: the token's account becomes verified
// with the password chosen in the sign-up that sent this link, and all the
// account's links are deleted, so each works once. An unknown, used or
// expired token is selah.ErrNotFound; of two concurrent calls with one token,
// one succeeds.
func (s *Store) VerifyEmail(ctx context.Context, token string, now time.Time) (Account, error) {
	var a Account
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var id int64
		var hash string
		var expires time.Time
		err := tx.QueryRow(ctx, `
			DELETE FROM email_verifications WHERE token_hash = $1
			RETURNING account_id, password_hash, expires_at`, verificationHash(token)).Scan(&id, &hash, &expires)
		if err != nil {
			return err
		}
		if !now.Before(expires) {
			return pgx.ErrNoRows // rolled back: the next sign-up purges it
		}
		if _, err := tx.Exec(ctx, `
			UPDATE accounts SET verified_at = $2, password_hash = $3 WHERE id = $1`, id, now, hash); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM email_verifications WHERE account_id = $1`, id); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `
			SELECT `+accountColumns+` FROM accounts a JOIN plans p ON p.name = a.plan
			WHERE a.id = $1`, id).Scan(accountDest(&a)...)
	})
	if err != nil {
		return Account{}, notFound("verify email", err)
	}
	return a, nil
}

// MarkVerified verifies the account with the email without a link (selah
// accounts verify, for development and operators). It keeps the password
// chosen at the latest sign-up and deletes the account's links. It reports
// whether the account was verified already, which is not an error; an
// unknown email is selah.ErrNotFound.
func (s *Store) MarkVerified(ctx context.Context, email string, now time.Time) (already bool, err error) {
	err = s.pool.QueryRow(ctx, `
		WITH old AS (SELECT id, verified_at FROM accounts WHERE email = $1 FOR UPDATE),
		     upd AS (UPDATE accounts a SET verified_at = $2 FROM old WHERE a.id = old.id AND old.verified_at IS NULL),
		     del AS (DELETE FROM email_verifications WHERE account_id IN (SELECT id FROM old))
		SELECT verified_at IS NOT NULL FROM old`, NormalizeEmail(email), now).Scan(&already)
	if err != nil {
		return false, notFound("mark verified", err)
	}
	return already, nil
}
