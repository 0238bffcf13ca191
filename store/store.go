// Package store is selah's PostgreSQL layer: a pgx pool with the pgvector
// types registered, the embedded migrations, and one file of plain SQL per
// entity (verses, accounts, keys, usage, answers).
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"sync/atomic"
	"syscall"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	pgxvec "github.com/pgvector/pgvector-go/pgx"
	"github.com/pressly/goose/v3"

	"github.com/selahdev/selah"
)

//go:embed migrations/*.sql
var migrations embed.FS

// notFound translates the driver's "no rows" into the domain's
// selah.ErrNotFound, here at the edge, so no caller ever tests for a pgx
// error; anything else is wrapped with what was being done.
func notFound(what string, err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return selah.ErrNotFound
	}
	return fmt.Errorf("store: %s: %w", what, err)
}

// Store wraps the connection pool. It is safe for concurrent use.
type Store struct {
	pool *pgxpool.Pool
	// text is the KJV in memory once LoadPassages has run (passages.go);
	// nil means verse text is read from the database.
	text atomic.Pointer[passages]
}

// Open connects to the database at url. It does not migrate.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("store: parse database url: %w", err)
	}
	cfg.AfterConnect = registerTypes
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: connect: %w", err)
	}
	return &Store{pool: pool}, nil
}

// registerTypes teaches the connection pgvector's types. Before the first
// migration the extension does not exist yet; such a connection works for
// everything but vectors and the pool is reset after migrating.
func registerTypes(ctx context.Context, conn *pgx.Conn) error {
	var ok bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_type WHERE typname = 'vector')`).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return nil
	}
	return pgxvec.RegisterTypes(ctx, conn)
}

// Pool returns the underlying pool, for packages that run their own SQL.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Close closes the pool.
func (s *Store) Close() { s.pool.Close() }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	return nil
}

func (s *Store) provider() (*goose.Provider, *sql.DB, error) {
	db := stdlib.OpenDBFromPool(s.pool)
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, nil, err
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, sub)
	if err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("store: migrations: %w", err)
	}
	return p, db, nil
}

// Migrate applies pending migrations and reports how many ran.
func (s *Store) Migrate(ctx context.Context) (int, error) {
	p, db, err := s.provider()
	if err != nil {
		return 0, err
	}
	defer db.Close()
	// Several processes may start at once (web and worker); serialize them.
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(7361626)`); err != nil {
		return 0, fmt.Errorf("store: migrate lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(7361626)`)
	res, err := p.Up(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: migrate: %w", err)
	}
	if len(res) > 0 {
		// Connections opened before CREATE EXTENSION lack the vector types.
		s.pool.Reset()
	}
	return len(res), nil
}

// MigrationsPending reports whether the database is behind the embedded
// migrations.
func (s *Store) MigrationsPending(ctx context.Context) (bool, error) {
	p, db, err := s.provider()
	if err != nil {
		return false, err
	}
	defer db.Close()
	ok, err := p.HasPending(ctx)
	if err != nil {
		return false, fmt.Errorf("store: migration status: %w", err)
	}
	return ok, nil
}

// MigrationsFS exposes the embedded migrations (tests hash them to key
// template databases).
func MigrationsFS() fs.FS {
	sub, _ := fs.Sub(migrations, "migrations")
	return sub
}

// Unavailable reports whether err means the database could not be reached
// (refused or dropped connections, timeouts while connecting), as opposed
// to a failed query. Callers turn it into a retryable 503, not a 500.
func Unavailable(err error) bool {
	// A context's deadline error is also a net.Error (it has Timeout()),
	// but it means the caller ran out of time, not that the database is
	// down.
	if err == nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return false
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	return pgconn.SafeToRetry(err) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)
}
