package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/selahdev/selah/corpus"
)

// StrongsCounts sums up the Strong's tables.
type StrongsCounts struct {
	Lemmas int
	// Words are the KJV's tagged words (a word tagged with two numbers
	// counts twice).
	Words int
}

// CopyStrongs replaces Strong's dictionary and the KJV's tagged words
// inside tx, with COPY. Ingest runs it in the corpus transaction
// (ReplaceCorpus's extra), after the verses the words point to.
func CopyStrongs(ctx context.Context, tx pgx.Tx, lemmas []corpus.Lemma, words []corpus.TaggedWord) (StrongsCounts, error) {
	if _, err := tx.Exec(ctx, `TRUNCATE verse_words, strongs`); err != nil {
		return StrongsCounts{}, fmt.Errorf("store: copy strongs: truncate: %w", err)
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"strongs"},
		[]string{"number", "lemma", "transliteration", "pronunciation", "gloss", "renderings"},
		pgx.CopyFromSlice(len(lemmas), func(i int) ([]any, error) {
			l := lemmas[i]
			return []any{l.Number, l.Lemma, l.Transliteration, l.Pronunciation, l.Gloss, nonNil(l.Renderings)}, nil
		}))
	if err != nil {
		return StrongsCounts{}, fmt.Errorf("store: copy strongs: %w", err)
	}
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"verse_words"},
		[]string{"verse_id", "ord", "number", "word"},
		pgx.CopyFromSlice(len(words), func(i int) ([]any, error) {
			w := words[i]
			return []any{int32(w.Verse), int16(w.Ord), w.Number, w.Text}, nil
		}))
	if err != nil {
		return StrongsCounts{}, fmt.Errorf("store: copy verse words: %w", err)
	}
	return StrongsCounts{Lemmas: len(lemmas), Words: len(words)}, nil
}

// Lexicon reads Strong's dictionary and the KJV's tagged words back, the
// words in verse order: what the word-meaning answers load into memory at
// start (14,000 lemmas, 400,000 words).
func (s *Store) Lexicon(ctx context.Context) ([]corpus.Lemma, []corpus.TaggedWord, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead})
	if err != nil {
		return nil, nil, fmt.Errorf("store: lexicon: %w", err)
	}
	defer tx.Rollback(ctx)

	rows, err := tx.Query(ctx, `SELECT number, lemma, transliteration, pronunciation, gloss, renderings
		FROM strongs ORDER BY number`)
	if err != nil {
		return nil, nil, fmt.Errorf("store: lexicon: %w", err)
	}
	lemmas, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (corpus.Lemma, error) {
		var l corpus.Lemma
		err := r.Scan(&l.Number, &l.Lemma, &l.Transliteration, &l.Pronunciation, &l.Gloss, &l.Renderings)
		return l, err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("store: lexicon: %w", err)
	}
	rows, err = tx.Query(ctx, `SELECT verse_id, ord, number, word FROM verse_words ORDER BY verse_id, ord, number`)
	if err != nil {
		return nil, nil, fmt.Errorf("store: lexicon words: %w", err)
	}
	var (
		w     corpus.TaggedWord
		id    int32
		ord   int16
		words []corpus.TaggedWord
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &ord, &w.Number, &w.Text}, func() error {
		w.Verse, w.Ord = corpus.VerseID(id), int(ord)
		words = append(words, w)
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("store: lexicon words: %w", err)
	}
	return lemmas, words, nil
}
