package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/selahdev/selah/api"
	"github.com/selahdev/selah/corpus"
)

// VerseRow is one verse as ingest writes it.
type VerseRow struct {
	ID        corpus.VerseID
	Text      string // plain KJV text
	Title     string // psalm title that stands before verse 1
	Paragraph bool   // a ¶ mark opens the verse
	WebText   string // WEB wording mapped onto this verse (retrieval aid)
	Glosses   string // Strong's glosses of the words tagged in the verse (retrieval aid)
	// WordsOfChrist: the verse holds words of Jesus (the module's red
	// letters).
	WordsOfChrist bool
}

// Module records one ingested SWORD module.
type Module struct {
	Name     string
	Role     string // "text", "parallel" or "topics"
	Version  string
	Checksum string
	Entries  int
}

// Modules returns what was ingested, keyed by module name.
func (s *Store) Modules(ctx context.Context) (map[string]Module, error) {
	rows, err := s.pool.Query(ctx, `SELECT name, role, version, checksum, entries FROM corpus_modules`)
	if err != nil {
		return nil, fmt.Errorf("store: modules: %w", err)
	}
	ms, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Module, error) {
		var m Module
		err := r.Scan(&m.Name, &m.Role, &m.Version, &m.Checksum, &m.Entries)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: modules: %w", err)
	}
	out := make(map[string]Module, len(ms))
	for _, m := range ms {
		out[m.Name] = m
	}
	return out, nil
}

// ReplaceCorpus replaces the books, verses and module records in one
// transaction: readers see the old corpus or the new one, never a mix, and a
// failed load leaves the old one in place. Verses are loaded with COPY.
// extra runs inside the same transaction after the verses are in (ingest
// uses it to rebuild what derives from them, like embeddings).
func (s *Store) ReplaceCorpus(ctx context.Context, verses []VerseRow, modules []Module, extra func(context.Context, pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("store: replace corpus: %w", err)
	}
	defer tx.Rollback(ctx)

	// TRUNCATE cascades to tables that reference verses (embeddings and the
	// like are derived data and are rebuilt by extra).
	if _, err := tx.Exec(ctx, `TRUNCATE verses, books, corpus_modules CASCADE`); err != nil {
		return fmt.Errorf("store: replace corpus: truncate: %w", err)
	}
	bookRows := make([][]any, 0, corpus.BookCount)
	for _, b := range corpus.Books() {
		bookRows = append(bookRows, []any{b.Number, b.OSIS, b.Name, string(b.Testament), b.Chapters()})
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"books"},
		[]string{"number", "osis", "name", "testament", "chapters"}, pgx.CopyFromRows(bookRows)); err != nil {
		return fmt.Errorf("store: replace corpus: books: %w", err)
	}
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"verses"},
		[]string{"id", "book", "chapter", "verse", "text", "title", "paragraph", "web_text", "glosses", "words_of_christ"},
		pgx.CopyFromSlice(len(verses), func(i int) ([]any, error) {
			v := verses[i]
			return []any{int32(v.ID), v.ID.Book(), v.ID.Chapter(), v.ID.Verse(), v.Text, v.Title, v.Paragraph, v.WebText, v.Glosses, v.WordsOfChrist}, nil
		}))
	if err != nil {
		return fmt.Errorf("store: replace corpus: verses: %w", err)
	}
	for _, m := range modules {
		if _, err := tx.Exec(ctx,
			`INSERT INTO corpus_modules (name, role, version, checksum, entries) VALUES ($1, $2, $3, $4, $5)`,
			m.Name, m.Role, m.Version, m.Checksum, m.Entries); err != nil {
			return fmt.Errorf("store: replace corpus: module %s: %w", m.Name, err)
		}
	}
	if extra != nil {
		if err := extra(ctx, tx); err != nil {
			return err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("store: replace corpus: commit: %w", err)
	}
	return nil
}

// CorpusFacts returns the verse count and the KJV module record. The count
// is the one ingest recorded, in the same transaction as the verses, so
// /health does not count 31,102 rows on every call.
func (s *Store) CorpusFacts(ctx context.Context) (api.CorpusFacts, error) {
	f := api.CorpusFacts{Translation: api.KJV}
	err := s.pool.QueryRow(ctx, `
		SELECT coalesce(m.entries, 0), (SELECT count(*) FROM books), coalesce(m.name, ''), coalesce(m.version, '')
		FROM (SELECT 1) AS one LEFT JOIN corpus_modules m ON m.role = 'text'`).
		Scan(&f.Verses, &f.Books, &f.Module, &f.Version)
	if err != nil {
		return f, fmt.Errorf("store: corpus facts: %w", err)
	}
	return f, nil
}

// VerseRange returns the verses with first <= id <= last in canonical order.
// It, VerseRangeN and VersesByID read the copy in memory once LoadPassages
// has made one.
func (s *Store) VerseRange(ctx context.Context, first, last corpus.VerseID) ([]corpus.Verse, error) {
	return s.VerseRangeN(ctx, first, last, 0)
}

// VerseRangeN is VerseRange returning at most n verses (n <= 0: all).
func (s *Store) VerseRangeN(ctx context.Context, first, last corpus.VerseID, n int) ([]corpus.Verse, error) {
	if p := s.text.Load(); p != nil {
		return p.rangeN(first, last, n), nil
	}
	var limit *int
	if n > 0 {
		limit = &n
	}
	rows, err := s.pool.Query(ctx,
		`SELECT id, text, title, words_of_christ FROM verses WHERE id BETWEEN $1 AND $2 ORDER BY id LIMIT $3`, int32(first), int32(last), limit)
	if err != nil {
		return nil, fmt.Errorf("store: verse range %d-%d: %w", first, last, err)
	}
	vs, err := collectVerses(rows)
	if err != nil {
		return nil, fmt.Errorf("store: verse range %d-%d: %w", first, last, err)
	}
	return vs, nil
}

// VersesByID returns the verses with the given ids, in the order given; ids
// that do not exist are left out.
func (s *Store) VersesByID(ctx context.Context, ids []corpus.VerseID) ([]corpus.Verse, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	if p := s.text.Load(); p != nil {
		return p.byID(ids), nil
	}
	raw := make([]int32, len(ids))
	for i, id := range ids {
		raw[i] = int32(id)
	}
	rows, err := s.pool.Query(ctx, `
		SELECT v.id, v.text, v.title, v.words_of_christ FROM unnest($1::int[]) WITH ORDINALITY AS q(id, ord)
		JOIN verses v ON v.id = q.id ORDER BY q.ord`, raw)
	if err != nil {
		return nil, fmt.Errorf("store: verses by id: %w", err)
	}
	vs, err := collectVerses(rows)
	if err != nil {
		return nil, fmt.Errorf("store: verses by id: %w", err)
	}
	return vs, nil
}

func collectVerses(rows pgx.Rows) ([]corpus.Verse, error) {
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (corpus.Verse, error) {
		var id int32
		var text, title string
		var christ bool
		if err := r.Scan(&id, &text, &title, &christ); err != nil {
			return corpus.Verse{}, err
		}
		return newVerse(corpus.VerseID(id), text, title, christ), nil
	})
}
