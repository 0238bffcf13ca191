package store

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/selahdev/selah"
)

// Plan names. The set is fixed (a CHECK in the schema); the limits of each
// are data that administrators edit.
const (
	PlanFree      = "free"
	PlanDeveloper = "developer"
	PlanBuilder   = "builder"
	PlanPro       = "pro"
	PlanInternal  = "internal"
)

// Account statuses.
const (
	AccountActive   = "active"
	AccountDisabled = "disabled"
)

// Plan is a named set of limits.
type Plan struct {
	Name               string
	RequestsPerMinute  int
	ConcurrentRequests int
	AsksPerDay         int
	AsksPerMonth       int
	MaxActiveKeys      int
}

// Account is a customer of the API. The password hash is not part of it;
// AccountForLogin returns it separately.
type Account struct {
	ID        int64
	Email     string
	Plan      Plan
	Status    string // AccountActive or AccountDisabled
	IsAdmin   bool
	Verified  bool // the address is proved the account's (see SignUp); website sign-in requires it
	CreatedAt time.Time
}

// NormalizeEmail trims and lower-cases an email address, the form in which
// it is stored and looked up.
func NormalizeEmail(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}

// validEmail accepts a bare addr-spec (RFC 5322, as net/mail parses it)
// whose domain has a dot between non-empty labels: "a@b" is refused, since
// mail cannot reach it on the public Internet.
func validEmail(email string) bool {
	if len(email) > 254 || strings.ContainsFunc(email, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return false
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Name != "" || addr.Address != email {
		return false
	}
	_, domain, ok := strings.Cut(email, "@")
	if !ok || !strings.Contains(domain, ".") {
		return false
	}
	for _, label := range strings.Split(domain, ".") {
		if label == "" {
			return false
		}
	}
	return true
}

// accountColumns and scanAccount read an account joined with its plan; the
// query must alias accounts as a and plans as p.
const accountColumns = `a.id, a.email, a.status, a.is_admin, a.verified_at IS NOT NULL, a.created_at,
	p.name, p.requests_per_minute, p.concurrent_requests, p.asks_per_day, p.asks_per_month, p.max_active_keys`

func accountDest(a *Account) []any {
	return []any{&a.ID, &a.Email, &a.Status, &a.IsAdmin, &a.Verified, &a.CreatedAt,
		&a.Plan.Name, &a.Plan.RequestsPerMinute, &a.Plan.ConcurrentRequests,
		&a.Plan.AsksPerDay, &a.Plan.AsksPerMonth, &a.Plan.MaxActiveKeys}
}

// CreateAccount creates an account for an operator (the CLI), verified:
// the operator vouches for the address. Website sign-ups go through SignUp.
// email is normalised; passwordHash may be empty (no website sign-in);
// plan "" means free. A taken email is a selah.ECONFLICT error, a bad email
// or unknown plan selah.EINVALID.
func (s *Store) CreateAccount(ctx context.Context, email, passwordHash string, plan string, admin bool) (Account, error) {
	email = NormalizeEmail(email)
	if !validEmail(email) {
		return Account{}, selah.Errorf(selah.EINVALID, "That is not a valid email address.")
	}
	if plan == "" {
		plan = PlanFree
	}
	var hash *string
	if passwordHash != "" {
		hash = &passwordHash
	}
	var a Account
	err := s.pool.QueryRow(ctx, `
		WITH a AS (
			INSERT INTO accounts (email, password_hash, plan, is_admin, verified_at)
			SELECT $1, $2, name, $4, now() FROM plans WHERE name = $3
			RETURNING *
		)
		SELECT `+accountColumns+` FROM a JOIN plans p ON p.name = a.plan`,
		email, hash, plan, admin).Scan(accountDest(&a)...)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return Account{}, unknownPlan(plan)
	case isUniqueViolation(err):
		return Account{}, selah.Errorf(selah.ECONFLICT, "An account with that email address already exists.")
	case err != nil:
		return Account{}, fmt.Errorf("store: create account: %w", err)
	}
	return a, nil
}

// AccountByEmail returns the account with the email (any case), or
// selah.ErrNotFound.
func (s *Store) AccountByEmail(ctx context.Context, email string) (Account, error) {
	var a Account
	err := s.pool.QueryRow(ctx, `
		SELECT `+accountColumns+` FROM accounts a JOIN plans p ON p.name = a.plan
		WHERE a.email = $1`, NormalizeEmail(email)).Scan(accountDest(&a)...)
	if err != nil {
		return Account{}, notFound("account by email", err)
	}
	return a, nil
}

// AccountByID returns the account with the id, or selah.ErrNotFound.
func (s *Store) AccountByID(ctx context.Context, id int64) (Account, error) {
	var a Account
	err := s.pool.QueryRow(ctx, `
		SELECT `+accountColumns+` FROM accounts a JOIN plans p ON p.name = a.plan
		WHERE a.id = $1`, id).Scan(accountDest(&a)...)
	if err != nil {
		return Account{}, notFound(fmt.Sprintf("account %d", id), err)
	}
	return a, nil
}

// AccountForLogin returns the account with the email and its password hash
// ("" when the account has none), or selah.ErrNotFound. It is for the website's
// sign-in and nothing else.
func (s *Store) AccountForLogin(ctx context.Context, email string) (Account, string, error) {
	var a Account
	var hash *string
	err := s.pool.QueryRow(ctx, `
		SELECT `+accountColumns+`, a.password_hash FROM accounts a JOIN plans p ON p.name = a.plan
		WHERE a.email = $1`, NormalizeEmail(email)).Scan(append(accountDest(&a), &hash)...)
	if err != nil {
		return Account{}, "", notFound("account for login", err)
	}
	if hash == nil {
		return a, "", nil
	}
	return a, *hash, nil
}

// SetPlan moves the account with the email to a plan. Limits apply from the
// next request (after the auth cache's half second).
func (s *Store) SetPlan(ctx context.Context, email, plan string) error {
	if _, err := s.planByName(ctx, plan); err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `UPDATE accounts SET plan = $2 WHERE email = $1`, NormalizeEmail(email), plan)
	if err != nil {
		return fmt.Errorf("store: set plan: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return selah.ErrNotFound
	}
	return nil
}

// DisableAccount disables the account with the email: every key of it is
// refused (selah.EACCOUNTDISABLED) while its keys keep their own status.
// Disabling twice is not an error.
func (s *Store) DisableAccount(ctx context.Context, email string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE accounts SET status = 'disabled' WHERE email = $1`, NormalizeEmail(email))
	if err != nil {
		return fmt.Errorf("store: disable account: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return selah.ErrNotFound
	}
	return nil
}

// Plans returns every plan, cheapest first.
func (s *Store) Plans(ctx context.Context) ([]Plan, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT name, requests_per_minute, concurrent_requests, asks_per_day, asks_per_month, max_active_keys
		FROM plans ORDER BY requests_per_minute, name`)
	if err != nil {
		return nil, fmt.Errorf("store: plans: %w", err)
	}
	ps, err := pgx.CollectRows(rows, scanPlan)
	if err != nil {
		return nil, fmt.Errorf("store: plans: %w", err)
	}
	return ps, nil
}

// UpdatePlanLimits sets the limits of the plan named p.Name. Limits must be
// positive (asks and keys may be zero).
func (s *Store) UpdatePlanLimits(ctx context.Context, p Plan) error {
	if p.RequestsPerMinute <= 0 || p.ConcurrentRequests <= 0 || p.AsksPerDay < 0 || p.AsksPerMonth < 0 || p.MaxActiveKeys < 0 {
		return selah.Errorf(selah.EINVALID, "Plan limits must be positive (asks and keys may be zero).")
	}
	tag, err := s.pool.Exec(ctx, `
		UPDATE plans SET requests_per_minute = $2, concurrent_requests = $3, asks_per_day = $4,
		                 asks_per_month = $5, max_active_keys = $6
		WHERE name = $1`,
		p.Name, p.RequestsPerMinute, p.ConcurrentRequests, p.AsksPerDay, p.AsksPerMonth, p.MaxActiveKeys)
	if err != nil {
		return fmt.Errorf("store: update plan %s: %w", p.Name, err)
	}
	if tag.RowsAffected() == 0 {
		return unknownPlan(p.Name)
	}
	return nil
}

func (s *Store) planByName(ctx context.Context, name string) (Plan, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT name, requests_per_minute, concurrent_requests, asks_per_day, asks_per_month, max_active_keys
		FROM plans WHERE name = $1`, name)
	if err != nil {
		return Plan{}, fmt.Errorf("store: plan %s: %w", name, err)
	}
	p, err := pgx.CollectExactlyOneRow(rows, scanPlan)
	if errors.Is(err, pgx.ErrNoRows) {
		return Plan{}, unknownPlan(name)
	}
	if err != nil {
		return Plan{}, fmt.Errorf("store: plan %s: %w", name, err)
	}
	return p, nil
}

func scanPlan(r pgx.CollectableRow) (Plan, error) {
	var p Plan
	err := r.Scan(&p.Name, &p.RequestsPerMinute, &p.ConcurrentRequests, &p.AsksPerDay, &p.AsksPerMonth, &p.MaxActiveKeys)
	return p, err
}

func unknownPlan(name string) error {
	return selah.Errorf(selah.EINVALID, "Unknown plan %q (plans: free, developer, builder, pro, internal).", name)
}

func isUniqueViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// EnableAccount lets a disabled account's keys work again (those not
// revoked, disabled or expired themselves).
func (s *Store) EnableAccount(ctx context.Context, email string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE accounts SET status = 'active' WHERE email = $1`, NormalizeEmail(email))
	if err != nil {
		return fmt.Errorf("store: enable account: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return selah.ErrNotFound
	}
	return nil
}
