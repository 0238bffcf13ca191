package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/selahdev/selah/corpus"
	"github.com/selahdev/selah/ingest"
	"github.com/selahdev/selah/store"
)

// Verses returns the verses of references written as
// corpus.ParseReference reads them ("Ruth 1:6-18", "Isaiah 2"), for tests
// that compare what was retrieved or stored with what a reader expects.
func Verses(t testing.TB, refs ...string) []corpus.VerseID {
	t.Helper()
	var ids []corpus.VerseID
	for _, ref := range refs {
		r, err := corpus.ParseReference(ref)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.VerseIDs()...)
	}
	return ids
}

// SwordDir is where tests read the SWORD modules from.
const SwordDir = "/usr/share/sword"

// NewCorpusStore returns a store on a fresh database that already holds the
// full ingested corpus. The first call on a machine builds a template
// database (migrate + ingest, a few seconds); later calls, in any test
// binary, clone it, which costs a file copy. The template's name hashes the
// migrations and the ingest format, so a change to either builds a new one.
func NewCorpusStore(t testing.TB) *store.Store {
	t.Helper()
	return open(t, NewCorpusURL(t))
}

// NewCorpusURL is NewCorpusStore for tests that run selah processes: the
// URL of a fresh database holding the full ingested corpus, dropped when
// the test ends.
func NewCorpusURL(t testing.TB) string {
	t.Helper()
	tpl, err := corpusTemplate(context.Background())
	if err != nil {
		t.Fatalf("storetest: corpus template: %v", err)
	}
	return newURL(t, tpl)
}

func templateName() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(store.MigrationsFS(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(store.MigrationsFS(), path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%s\x00", path, b)
		return nil
	})
	if err != nil {
		return "", err
	}
	fmt.Fprint(h, ingest.Version())
	return "selah_tpl_" + hex.EncodeToString(h.Sum(nil))[:16], nil
}

func corpusTemplate(ctx context.Context) (string, error) {
	name, err := templateName()
	if err != nil {
		return "", err
	}
	admin, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		return "", err
	}
	defer admin.Close(ctx)
	// One builder at a time across all test binaries.
	if _, err := admin.Exec(ctx, `SELECT pg_advisory_lock(7361627)`); err != nil {
		return "", err
	}
	defer admin.Exec(context.Background(), `SELECT pg_advisory_unlock(7361627)`)

	var exists bool
	if err := admin.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	// Drop templates of earlier schemas once they are a day old. Several
	// checkouts with different schemas (branches, worktrees) share this
	// server; dropping a template another checkout's tests are cloning from
	// would fail them, so a recent one is left alone. The build time is kept
	// in the database's comment.
	rows, err := admin.Query(ctx, `SELECT datname, coalesce(shobj_description(oid, 'pg_database'), '')
		FROM pg_database WHERE datname LIKE 'selah_tpl_%'`)
	if err != nil {
		return "", err
	}
	type tpl struct{ name, comment string }
	stale, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (tpl, error) {
		var t tpl
		return t, r.Scan(&t.name, &t.comment)
	})
	if err != nil {
		return "", err
	}
	for _, s := range stale {
		built, _ := time.Parse(time.RFC3339, strings.TrimPrefix(s.comment, "built "))
		if time.Since(built) < 24*time.Hour {
			continue
		}
		admin.Exec(ctx, fmt.Sprintf(`ALTER DATABASE %s IS_TEMPLATE false`, pgx.Identifier{s.name}.Sanitize()))
		admin.Exec(ctx, fmt.Sprintf(`DROP DATABASE IF EXISTS %s`, pgx.Identifier{s.name}.Sanitize()))
	}
	building := name + "_building"
	if err := createDatabase(ctx, building, ""); err != nil {
		return "", err
	}
	if err := fill(ctx, dbURL(building)); err != nil {
		dropDatabase(building)
		return "", err
	}
	for _, sql := range []string{
		fmt.Sprintf(`ALTER DATABASE %s RENAME TO %s`, pgx.Identifier{building}.Sanitize(), pgx.Identifier{name}.Sanitize()),
		fmt.Sprintf(`ALTER DATABASE %s IS_TEMPLATE true`, pgx.Identifier{name}.Sanitize()),
		fmt.Sprintf(`COMMENT ON DATABASE %s IS 'built %s'`, pgx.Identifier{name}.Sanitize(), time.Now().UTC().Format(time.RFC3339)),
	} {
		if _, err := admin.Exec(ctx, sql); err != nil {
			dropDatabase(building)
			return "", err
		}
	}
	return name, nil
}

func fill(ctx context.Context, u string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	st, err := store.Open(ctx, u)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.Migrate(ctx); err != nil {
		return err
	}
	if _, err := ingest.Run(ctx, st, ingest.Options{SwordDir: SwordDir}); err != nil {
		return err
	}
	return nil
}
