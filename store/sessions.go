package store

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/selahdev/selah"
)

// Session is a signed-in website session. The token that names it exists
// only in the browser's cookie; the sessions table holds its SHA-256, so a
// leaked table or backup hands out no sessions. Like API keys, tokens are
// 256 random bits, which is why a fast unsalted hash is enough.
type Session struct {
	AccountID int64
	// CSRFToken is the token every form of the session must carry. It is
	// not a credential on its own (it is useless without the cookie), so it
	// is stored as is and rendered into pages.
	CSRFToken string
	CreatedAt time.Time
	ExpiresAt time.Time
}

func sessionID(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// CreateSession starts a session for the account, valid from now for ttl,
// and returns its token; this is the only time the token exists outside the
// caller. now is the caller's clock, so that tests can expire sessions
// without sleeping. The account's sessions that expired by now are deleted
// in the same statement, which keeps the table bounded without a cleanup
// job. An unknown account is selah.ErrNotFound.
func (s *Store) CreateSession(ctx context.Context, accountID int64, now time.Time, ttl time.Duration) (string, Session, error) {
	token, csrf := selah.NewToken(), selah.NewToken()
	sess := Session{AccountID: accountID, CSRFToken: csrf}
	err := s.pool.QueryRow(ctx, `
		WITH purged AS (DELETE FROM sessions WHERE account_id = $2 AND expires_at <= $4)
		INSERT INTO sessions (id, account_id, csrf_token, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5)
		RETURNING created_at, expires_at`,
		sessionID(token), accountID, csrf, now, now.Add(ttl)).Scan(&sess.CreatedAt, &sess.ExpiresAt)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23503" { // foreign_key_violation
		return "", Session{}, selah.ErrNotFound
	}
	if err != nil {
		return "", Session{}, fmt.Errorf("store: create session: %w", err)
	}
	return token, sess, nil
}

// SessionByToken returns the session named by the cookie token, with its
// account, if it has not expired at now; otherwise selah.ErrNotFound. Tokens that
// cannot be ours are refused without a query.
func (s *Store) SessionByToken(ctx context.Context, token string, now time.Time) (Session, Account, error) {
	if len(token) != selah.TokenLen {
		return Session{}, Account{}, selah.ErrNotFound
	}
	var sess Session
	var a Account
	err := s.pool.QueryRow(ctx, `
		SELECT s.account_id, s.csrf_token, s.created_at, s.expires_at, `+accountColumns+`
		FROM sessions s
		JOIN accounts a ON a.id = s.account_id
		JOIN plans p ON p.name = a.plan
		WHERE s.id = $1 AND s.expires_at > $2`, sessionID(token), now).
		Scan(append([]any{&sess.AccountID, &sess.CSRFToken, &sess.CreatedAt, &sess.ExpiresAt}, accountDest(&a)...)...)
	if err != nil {
		return Session{}, Account{}, notFound("session by token", err)
	}
	return sess, a, nil
}

// ExtendSession moves the session's expiry to expiresAt; it never shortens
// it. An unknown or deleted session is left alone and is not an error: the
// next lookup finds nothing anyway.
func (s *Store) ExtendSession(ctx context.Context, token string, expiresAt time.Time) error {
	_, err := s.pool.Exec(ctx, `UPDATE sessions SET expires_at = $2 WHERE id = $1 AND expires_at < $2`,
		sessionID(token), expiresAt)
	if err != nil {
		return fmt.Errorf("store: extend session: %w", err)
	}
	return nil
}

// DeleteSession ends the session named by the token. Deleting a session
// that does not exist is not an error: signing out twice is fine.
func (s *Store) DeleteSession(ctx context.Context, token string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE id = $1`, sessionID(token)); err != nil {
		return fmt.Errorf("store: delete session: %w", err)
	}
	return nil
}
