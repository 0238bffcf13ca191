package store

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/selahdev/selah/corpus"
)

// The KJV text in memory. Once ingested it does not change until the next
// ingest of another module or ingest code, and that changes the text
// module's checksum (ingest's checksum covers how markup becomes rows). So
// a process may keep all of it (31,102 verses, about 5 MB) and answer
// VerseRange, VerseRangeN, VersesByID and TextEdition without a query:
// LoadPassages loads it, and from then on those methods read memory.
//
// Staleness: WatchPassages compares the database's checksum with the one
// in memory every PassagesCheckEvery. When they differ the process drops
// its copy at once (those methods query Postgres meanwhile, which is
// always current), loads the new text and its edition in one snapshot,
// and serves from memory again. So after a re-ingest commits, a process
// serves the previous edition for at most PassagesCheckEvery (plus the
// query that notices), and always labelled with that edition's checksum:
// text and X-Corpus-Checksum come from the same copy.

// PassagesCheckEvery is how often WatchPassages compares checksums. One
// single-row query a second per process costs nothing next to the traffic,
// and it bounds staleness as the API key cache bounds revocation.
const PassagesCheckEvery = time.Second

// Edition names the text the verses come from: the KJV module as ingested
// (all empty before the first ingest).
type Edition struct {
	Module, Version, Checksum string
}

// passages is one immutable copy of the text.
type passages struct {
	edition Edition
	verses  []verseText // canonical order, ids ascending
}

// verseText is a verse as kept in memory; corpus.Verse is built from it on
// the way out (its Book is a lookup in the compiled versification).
type verseText struct {
	id          corpus.VerseID
	text, title string
	christ      bool // words of Jesus
}

func (vt verseText) verse() corpus.Verse {
	return newVerse(vt.id, vt.text, vt.title, vt.christ)
}

func newVerse(id corpus.VerseID, text, title string, christ bool) corpus.Verse {
	v := corpus.Verse{ID: id, Chapter: id.Chapter(), Number: id.Verse(), Text: text, Title: title, WordsOfChrist: christ}
	v.Book, _ = corpus.BookByNumber(id.Book())
	return v
}

// at returns the index of the first verse with an id at or after id.
func (p *passages) at(id corpus.VerseID) int {
	return sort.Search(len(p.verses), func(i int) bool { return p.verses[i].id >= id })
}

func (p *passages) rangeN(first, last corpus.VerseID, n int) []corpus.Verse {
	// Ids are integers, so the verses in range end where last+1 would
	// start: the slice is sized once, not grown verse by verse.
	start, end := p.at(first), p.at(last+1)
	if n > 0 {
		end = min(end, start+n)
	}
	if end <= start {
		return nil
	}
	out := make([]corpus.Verse, end-start)
	for i := range out {
		out[i] = p.verses[start+i].verse()
	}
	return out
}

func (p *passages) byID(ids []corpus.VerseID) []corpus.Verse {
	out := make([]corpus.Verse, 0, len(ids))
	for _, id := range ids {
		if i := p.at(id); i < len(p.verses) && p.verses[i].id == id {
			out = append(out, p.verses[i].verse())
		}
	}
	return out
}

// LoadPassages loads the text into memory, unless the copy there already
// has the database's checksum. It reports whether it loaded.
func (s *Store) LoadPassages(ctx context.Context) (bool, error) {
	ed, err := s.queryEdition(ctx, s.pool)
	if err != nil {
		return false, fmt.Errorf("store: load passages: %w", err)
	}
	if cur := s.text.Load(); cur != nil && cur.edition == ed {
		return false, nil
	}
	// The copy is stale: stop serving it before the reload, which takes a
	// moment.
	s.text.Store(nil)
	p, err := s.readPassages(ctx)
	if err != nil {
		return false, fmt.Errorf("store: load passages: %w", err)
	}
	s.text.Store(p)
	return true, nil
}

// readPassages reads the edition and every verse in one snapshot, so the
// checksum kept is that of the text kept even while an ingest commits.
func (s *Store) readPassages(ctx context.Context) (*passages, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx)
	// Verses first, then the modules: the order in which ReplaceCorpus's
	// TRUNCATE locks them, so a load and an ingest cannot deadlock.
	p := &passages{}
	rows, err := tx.Query(ctx, `SELECT id, text, title, words_of_christ FROM verses ORDER BY id`)
	if err != nil {
		return nil, err
	}
	p.verses, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (verseText, error) {
		var id int32
		var vt verseText
		err := r.Scan(&id, &vt.text, &vt.title, &vt.christ)
		vt.id = corpus.VerseID(id)
		return vt, err
	})
	if err != nil {
		return nil, err
	}
	if p.edition, err = s.queryEdition(ctx, tx); err != nil {
		return nil, err
	}
	return p, tx.Commit(ctx)
}

// WatchPassages keeps the copy LoadPassages made current until ctx ends:
// every PassagesCheckEvery it compares checksums and reloads on a change.
// A failed check (Postgres away) keeps the copy, which is still the
// latest this process knows of; the first failure of a run of them is
// reported to onError.
func (s *Store) WatchPassages(ctx context.Context, onError func(error)) {
	t := time.NewTicker(PassagesCheckEvery)
	defer t.Stop()
	failing := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		_, err := s.LoadPassages(ctx)
		if err != nil && !failing && ctx.Err() == nil {
			onError(err)
		}
		failing = err != nil
	}
}

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func (s *Store) queryEdition(ctx context.Context, q querier) (Edition, error) {
	var ed Edition
	err := q.QueryRow(ctx, `
		SELECT coalesce(m.name, ''), coalesce(m.version, ''), coalesce(m.checksum, '')
		FROM (SELECT 1) AS one LEFT JOIN corpus_modules m ON m.role = 'text'`).Scan(&ed.Module, &ed.Version, &ed.Checksum)
	return ed, err
}

// TextEdition names the text VerseRange and VersesByID serve: from memory
// once LoadPassages has run, else from the database.
func (s *Store) TextEdition(ctx context.Context) (Edition, error) {
	if p := s.text.Load(); p != nil {
		return p.edition, nil
	}
	ed, err := s.queryEdition(ctx, s.pool)
	if err != nil {
		return Edition{}, fmt.Errorf("store: text edition: %w", err)
	}
	return ed, nil
}
