package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/selahdev/selah/corpus"
)

// NaveCounts sums up the Nave's tables.
type NaveCounts struct {
	Topics  int
	Entries int
	// VerseRuns are the entries' verse runs (Heb 7:1-21 is one).
	VerseRuns int
	SeeLinks  int
	// SeeResolved are the see-links whose title is a topic.
	SeeResolved int
}

// CopyNaves replaces the Nave's tables with topics inside tx, with COPY.
// Ingest runs it in the corpus transaction (ReplaceCorpus's extra), so
// the topics change together with the verses they point to. Topic ids are
// positions in topics (from 1); entry ids run through all topics in
// order, so an entry's parent, which comes before it, has a smaller id.
func CopyNaves(ctx context.Context, tx pgx.Tx, topics []corpus.NaveTopic) (NaveCounts, error) {
	var c NaveCounts
	if _, err := tx.Exec(ctx, `TRUNCATE nave_see, nave_entry_verses, nave_entries, nave_topics`); err != nil {
		return c, fmt.Errorf("store: copy naves: truncate: %w", err)
	}
	byTitle := make(map[string]int, len(topics))
	topicRows := make([][]any, 0, len(topics))
	for i, t := range topics {
		byTitle[strings.ToUpper(t.Title)] = i + 1
		topicRows = append(topicRows, []any{int32(i + 1), t.Title})
	}
	var entryRows, verseRows, seeRows [][]any
	id := int32(0)
	for ti, t := range topics {
		base := id + 1 // the id of the topic's first entry
		for ei, e := range t.Entries {
			id++
			var parent *int32
			if e.Parent >= 0 {
				p := base + int32(e.Parent)
				parent = &p
			}
			entryRows = append(entryRows, []any{id, int32(ti + 1), parent, int32(ei), e.Phrase})
			for vi, v := range e.Verses {
				verseRows = append(verseRows, []any{id, int32(vi), int32(v.First), int32(v.Last)})
			}
			for si, s := range e.See {
				var target *int32
				if tid, ok := byTitle[strings.ToUpper(s)]; ok {
					t := int32(tid)
					target = &t
					c.SeeResolved++
				}
				seeRows = append(seeRows, []any{id, int32(si), s, target})
			}
		}
	}
	for _, cp := range []struct {
		table string
		cols  []string
		rows  [][]any
	}{
		{"nave_topics", []string{"id", "title"}, topicRows},
		{"nave_entries", []string{"id", "topic_id", "parent_id", "ord", "phrase"}, entryRows},
		{"nave_entry_verses", []string{"entry_id", "ord", "first_verse", "last_verse"}, verseRows},
		{"nave_see", []string{"entry_id", "ord", "target", "target_id"}, seeRows},
	} {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{cp.table}, cp.cols, pgx.CopyFromRows(cp.rows)); err != nil {
			return c, fmt.Errorf("store: copy naves: %s: %w", cp.table, err)
		}
	}
	c.Topics, c.Entries, c.VerseRuns, c.SeeLinks = len(topicRows), len(entryRows), len(verseRows), len(seeRows)
	return c, nil
}

// NaveCounts counts the rows of the Nave's tables.
func (s *Store) NaveCounts(ctx context.Context) (NaveCounts, error) {
	var c NaveCounts
	err := s.pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM nave_topics), (SELECT count(*) FROM nave_entries),
		(SELECT count(*) FROM nave_entry_verses), (SELECT count(*) FROM nave_see),
		(SELECT count(*) FROM nave_see WHERE target_id IS NOT NULL)`).
		Scan(&c.Topics, &c.Entries, &c.VerseRuns, &c.SeeLinks, &c.SeeResolved)
	if err != nil {
		return c, fmt.Errorf("store: nave counts: %w", err)
	}
	return c, nil
}

// NaveTopics reads the whole of Nave's back, topics in id order with their
// entries, verse runs and see-links in Nave's order: what the topic router
// loads into memory at start (5,300 topics, 30,000 entries, 80,000 runs).
func (s *Store) NaveTopics(ctx context.Context) ([]corpus.NaveTopic, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead})
	if err != nil {
		return nil, fmt.Errorf("store: nave topics: %w", err)
	}
	defer tx.Rollback(ctx)

	var topics []corpus.NaveTopic
	topicAt := map[int32]int{}
	rows, err := tx.Query(ctx, `SELECT id, title FROM nave_topics ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: nave topics: %w", err)
	}
	var id int32
	var title string
	_, err = pgx.ForEachRow(rows, []any{&id, &title}, func() error {
		topicAt[id] = len(topics)
		topics = append(topics, corpus.NaveTopic{Title: title})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: nave topics: %w", err)
	}

	// Where each entry id landed: its topic and its index there.
	type place struct{ topic, index int }
	entryAt := map[int32]place{}
	rows, err = tx.Query(ctx, `SELECT id, topic_id, parent_id, phrase FROM nave_entries ORDER BY topic_id, ord`)
	if err != nil {
		return nil, fmt.Errorf("store: nave entries: %w", err)
	}
	var topicID int32
	var parent *int32
	var phrase string
	_, err = pgx.ForEachRow(rows, []any{&id, &topicID, &parent, &phrase}, func() error {
		ti, ok := topicAt[topicID]
		if !ok {
			return fmt.Errorf("entry %d of unknown topic %d", id, topicID)
		}
		e := corpus.NaveEntry{Parent: -1, Phrase: phrase}
		if parent != nil {
			p, ok := entryAt[*parent]
			if !ok || p.topic != ti {
				return fmt.Errorf("entry %d: parent %d is not an earlier entry of its topic", id, *parent)
			}
			e.Parent = p.index
		}
		entryAt[id] = place{ti, len(topics[ti].Entries)}
		topics[ti].Entries = append(topics[ti].Entries, e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: nave entries: %w", err)
	}

	rows, err = tx.Query(ctx, `SELECT entry_id, first_verse, last_verse FROM nave_entry_verses ORDER BY entry_id, ord`)
	if err != nil {
		return nil, fmt.Errorf("store: nave entry verses: %w", err)
	}
	var first, last int32
	_, err = pgx.ForEachRow(rows, []any{&id, &first, &last}, func() error {
		p := entryAt[id]
		e := &topics[p.topic].Entries[p.index]
		e.Verses = append(e.Verses, corpus.VerseSpan{First: corpus.VerseID(first), Last: corpus.VerseID(last)})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: nave entry verses: %w", err)
	}

	rows, err = tx.Query(ctx, `SELECT entry_id, target FROM nave_see ORDER BY entry_id, ord`)
	if err != nil {
		return nil, fmt.Errorf("store: nave see: %w", err)
	}
	var target string
	_, err = pgx.ForEachRow(rows, []any{&id, &target}, func() error {
		p := entryAt[id]
		e := &topics[p.topic].Entries[p.index]
		e.See = append(e.See, target)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: nave see: %w", err)
	}
	return topics, nil
}
