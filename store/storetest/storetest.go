// Package storetest makes real PostgreSQL databases and Redis databases cheap
// to use in tests: each test gets its own, created on demand and dropped or
// flushed when the test ends. Nothing here is a fake.
package storetest

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah/store"
)

// AdminURL is the maintenance database tests connect to in order to create
// and drop their own. SELAH_TEST_DATABASE_URL overrides it.
func AdminURL() string {
	if u := os.Getenv("SELAH_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return "postgres://root@127.0.0.1:5432/postgres?sslmode=disable"
}

// RedisAddr is the Redis server tests use. SELAH_TEST_REDIS_ADDR overrides it.
func RedisAddr() string {
	if a := os.Getenv("SELAH_TEST_REDIS_ADDR"); a != "" {
		return a
	}
	return "127.0.0.1:6379"
}

func randomName(prefix string) string {
	return prefix + strings.ToLower(rand.Text()[:12]) // database names are lower case
}

// dbURL returns AdminURL with the database name replaced.
func dbURL(name string) string {
	u, err := url.Parse(AdminURL())
	if err != nil {
		panic(err)
	}
	u.Path = "/" + name
	return u.String()
}

func adminExec(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// createDatabase creates a database, optionally from a template, retrying
// while another session briefly holds the template.
func createDatabase(ctx context.Context, name, template string) error {
	sql := fmt.Sprintf(`CREATE DATABASE %s`, pgx.Identifier{name}.Sanitize())
	if template != "" {
		sql += fmt.Sprintf(` TEMPLATE %s`, pgx.Identifier{template}.Sanitize())
	}
	var err error
	for i := 0; i < 100; i++ {
		if err = adminExec(ctx, sql); err == nil || !strings.Contains(err.Error(), "being accessed by other users") {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

func dropDatabase(name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = adminExec(ctx, fmt.Sprintf(`DROP DATABASE IF EXISTS %s WITH (FORCE)`, pgx.Identifier{name}.Sanitize()))
}

// NewURL creates an empty database for the test and returns its URL. The
// database is dropped when the test ends.
func NewURL(t testing.TB) string {
	t.Helper()
	return newURL(t, "")
}

func newURL(t testing.TB, template string) string {
	t.Helper()
	ctx := context.Background()
	name := randomName("selah_test_")
	if err := createDatabase(ctx, name, template); err != nil {
		t.Fatalf("storetest: create database: %v", err)
	}
	t.Cleanup(func() { dropDatabase(name) })
	return dbURL(name)
}

// NewStore returns a store on a fresh, migrated database without corpus data.
func NewStore(t testing.TB) *store.Store {
	t.Helper()
	st := open(t, NewURL(t))
	if _, err := st.Migrate(context.Background()); err != nil {
		t.Fatalf("storetest: migrate: %v", err)
	}
	return st
}

func open(t testing.TB, u string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), u)
	if err != nil {
		t.Fatalf("storetest: open: %v", err)
	}
	t.Cleanup(st.Close)
	return st
}

// NewRedis reserves one of Redis's numbered databases (1-15) for the test,
// flushes it, and returns its URL and a client. Reservations are held in
// database 0 with a lease, so parallel test binaries never share a database
// and a crashed test frees its reservation by itself.
func NewRedis(t testing.TB) (string, *redis.Client) {
	t.Helper()
	ctx := context.Background()
	ctl := redis.NewClient(&redis.Options{Addr: RedisAddr()})
	t.Cleanup(func() { ctl.Close() })
	token := randomName("")
	deadline := time.Now().Add(2 * time.Minute)
	for {
		for db := 1; db <= 15; db++ {
			key := fmt.Sprintf("selah:testdb:%d", db)
			ok, err := ctl.SetNX(ctx, key, token, 10*time.Minute).Result()
			if err != nil {
				t.Fatalf("storetest: redis: %v", err)
			}
			if !ok {
				continue
			}
			u := fmt.Sprintf("redis://%s/%d", RedisAddr(), db)
			rc := redis.NewClient(&redis.Options{Addr: RedisAddr(), DB: db})
			if err := rc.FlushDB(ctx).Err(); err != nil {
				t.Fatalf("storetest: flush redis db %d: %v", db, err)
			}
			t.Cleanup(func() {
				rc.FlushDB(context.Background())
				rc.Close()
				if v, _ := ctl.Get(context.Background(), key).Result(); v == token {
					ctl.Del(context.Background(), key)
				}
			})
			return u, rc
		}
		if time.Now().After(deadline) {
			t.Fatalf("storetest: no free Redis database after 2 minutes")
		}
		time.Sleep(200 * time.Millisecond)
	}
}
