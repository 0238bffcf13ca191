package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/selahdev/selah"
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
	if _, err := tx.Exec(ctx, `TRUNCATE strongs_words, verse_words, strongs`); err != nil {
		return StrongsCounts{}, fmt.Errorf("store: copy strongs: truncate: %w", err)
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"strongs"},
		[]string{"number", "lemma", "transliteration", "pronunciation", "gloss", "renderings", "definition", "related"},
		pgx.CopyFromSlice(len(lemmas), func(i int) ([]any, error) {
			l := lemmas[i]
			return []any{l.Number, l.Lemma, l.Transliteration, l.Pronunciation, l.Gloss, nonNil(l.Renderings), l.Definition, nonNil(l.Related)}, nil
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
	// What GET /words/{number} shows of the tags, counted once here. The
	// English words are lower-cased, without what follows an apostrophe
	// ("love’s") or a leading article ("the love"), the way people look
	// words up.
	if _, err := tx.Exec(ctx, `
		INSERT INTO strongs_words (number, word, count)
		SELECT number, w, count(*) FROM (
			SELECT number, lower(regexp_replace(regexp_replace(word, '[’''].*$', ''), '^(the|a|an) ', '', 'i')) AS w
			FROM verse_words) x
		WHERE w <> '' AND w NOT IN ('the', 'a', 'an')
		GROUP BY number, w`); err != nil {
		return StrongsCounts{}, fmt.Errorf("store: count strongs words: %w", err)
	}
	if _, err := tx.Exec(ctx, `
		UPDATE strongs s SET uses = c.uses, verses = c.verses
		FROM (SELECT number, count(*) AS uses, count(DISTINCT verse_id) AS verses FROM verse_words GROUP BY number) c
		WHERE s.number = c.number`); err != nil {
		return StrongsCounts{}, fmt.Errorf("store: count strongs uses: %w", err)
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

	rows, err := tx.Query(ctx, `SELECT `+lemmaColumns+` FROM strongs ORDER BY number`)
	if err != nil {
		return nil, nil, fmt.Errorf("store: lexicon: %w", err)
	}
	lemmas, err := pgx.CollectRows(rows, scanLemma)
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

// lemmaColumns are the strongs columns scanLemma reads.
const lemmaColumns = `number, lemma, transliteration, pronunciation, gloss, renderings,
	CASE definition WHEN '' THEN gloss ELSE definition END, related`

// scanLemma reads a row of lemmaColumns. A row written before migration
// 00015 has no definition yet: its gloss stands in.
func scanLemma(r pgx.CollectableRow) (corpus.Lemma, error) {
	var l corpus.Lemma
	err := r.Scan(&l.Number, &l.Lemma, &l.Transliteration, &l.Pronunciation, &l.Gloss, &l.Renderings, &l.Definition, &l.Related)
	return l, err
}

// Lemma returns the Strong's entry numbered number ("G26"; written as
// corpus.Lemma writes it), or selah.ErrNotFound.
func (s *Store) Lemma(ctx context.Context, number string) (corpus.Lemma, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+lemmaColumns+` FROM strongs WHERE number = $1`, number)
	if err != nil {
		return corpus.Lemma{}, fmt.Errorf("store: lemma %s: %w", number, err)
	}
	l, err := pgx.CollectExactlyOneRow(rows, scanLemma)
	if errors.Is(err, pgx.ErrNoRows) {
		return corpus.Lemma{}, selah.ErrNotFound
	}
	if err != nil {
		return corpus.Lemma{}, fmt.Errorf("store: lemma %s: %w", number, err)
	}
	return l, nil
}

// Rendering is one English word the KJV's Strong's tags give for a lemma,
// with how many times.
type Rendering struct {
	Word  string
	Count int
}

// LemmaUses are where the KJV translates a lemma: its tagged uses
// counted, the English words of them counted (commonest first), and one
// page of the verses that hold it, in canonical order.
type LemmaUses struct {
	// Uses counts tagged words (a verse may hold the lemma twice).
	Uses       int
	VerseCount int
	Renderings []Rendering
	Verses     []corpus.VerseID
}

// LemmaUses reads where the KJV translates number: the counts (made at
// ingest, CopyStrongs), and the verses from the offset-th (0-based) on,
// at most limit of them.
func (s *Store) LemmaUses(ctx context.Context, number string, limit, offset int) (LemmaUses, error) {
	var u LemmaUses
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead})
	if err != nil {
		return u, fmt.Errorf("store: lemma uses: %w", err)
	}
	defer tx.Rollback(ctx)
	rows, err := tx.Query(ctx, `SELECT word, count FROM strongs_words WHERE number = $1 ORDER BY count DESC, word`, number)
	if err != nil {
		return u, fmt.Errorf("store: lemma uses: %w", err)
	}
	u.Renderings, err = pgx.CollectRows(rows, pgx.RowToStructByPos[Rendering])
	if err != nil {
		return u, fmt.Errorf("store: lemma uses: %w", err)
	}
	err = tx.QueryRow(ctx, `SELECT uses, verses FROM strongs WHERE number = $1`, number).Scan(&u.Uses, &u.VerseCount)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return u, fmt.Errorf("store: lemma uses: %w", err)
	}
	rows, err = tx.Query(ctx, `SELECT DISTINCT verse_id FROM verse_words WHERE number = $1
		ORDER BY verse_id LIMIT $2 OFFSET $3`, number, limit, offset)
	if err != nil {
		return u, fmt.Errorf("store: lemma uses: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return u, fmt.Errorf("store: lemma uses: %w", err)
	}
	u.Verses = make([]corpus.VerseID, len(ids))
	for i, id := range ids {
		u.Verses[i] = corpus.VerseID(id)
	}
	return u, nil
}
