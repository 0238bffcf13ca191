package store

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/selahdev/selah/corpus"
)

// EmbedderRecord is a row of embedders, with the number of verses that
// have a vector under it.
type EmbedderRecord struct {
	Name     string
	Kind     string // "local" or "openai"
	Dims     int
	Model    []byte // JSON
	Checksum string
	BuiltAt  time.Time
	Vectors  int
}

// Embedding is one verse's vector: exactly one of Dense and Sparse is set.
type Embedding struct {
	VerseID corpus.VerseID
	Dense   *pgvector.Vector
	Sparse  *pgvector.SparseVector
}

// IndexText is one verse as embedders read it.
type IndexText struct {
	ID      corpus.VerseID
	Text    string
	WebText string
}

var embedderName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,30}$`)

// ValidEmbedderName reports whether name can name an embedder: it becomes
// part of an index name and a SQL literal, so it is held to [a-z0-9_].
func ValidEmbedderName(name string) bool { return embedderName.MatchString(name) }

// Embedder returns the embedders row called name, or ErrNotFound.
func (s *Store) Embedder(ctx context.Context, name string) (EmbedderRecord, error) {
	var r EmbedderRecord
	var model string
	err := s.pool.QueryRow(ctx, `
		SELECT e.name, e.kind, e.dims, e.model::text, e.checksum, e.built_at,
		       (SELECT count(*) FROM verse_embeddings v WHERE v.embedder = e.name)
		FROM embedders e WHERE e.name = $1`, name).
		Scan(&r.Name, &r.Kind, &r.Dims, &model, &r.Checksum, &r.BuiltAt, &r.Vectors)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, ErrNotFound
	}
	if err != nil {
		return r, fmt.Errorf("store: embedder %s: %w", name, err)
	}
	r.Model = []byte(model)
	return r, nil
}

// IndexTexts returns every verse's KJV and WEB text in canonical order.
func (s *Store) IndexTexts(ctx context.Context) ([]IndexText, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, text, web_text FROM verses ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: index texts: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (IndexText, error) {
		var id int32
		var t IndexText
		err := r.Scan(&id, &t.Text, &t.WebText)
		t.ID = corpus.VerseID(id)
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: index texts: %w", err)
	}
	return out, nil
}

// EmbeddingIndexName is the name of the HNSW index over embedder's vectors.
func EmbeddingIndexName(embedder string) string {
	return "verse_embeddings_" + embedder + "_hnsw"
}

// EmbeddingIndexExpr is the indexed expression for an embedder's vectors,
// which searches must repeat for the index to serve them.
func EmbeddingIndexExpr(sparse bool, dims int) string {
	if sparse {
		return fmt.Sprintf("(sparse::sparsevec(%d))", dims)
	}
	return fmt.Sprintf("(dense::vector(%d))", dims)
}

// ReplaceEmbeddings stores rec and its vectors in place of what the
// embedder had, in one transaction: the row, the vectors (COPY) and, when
// hnsw is set, the HNSW index, rebuilt for rec.Dims (sparse vectors are
// indexed for inner product, dense ones for cosine distance). Readers see
// the old vectors or the new ones.
func (s *Store) ReplaceEmbeddings(ctx context.Context, rec EmbedderRecord, vecs []Embedding, hnsw bool) error {
	if !ValidEmbedderName(rec.Name) {
		return fmt.Errorf("store: replace embeddings: bad embedder name %q", rec.Name)
	}
	if len(vecs) == 0 {
		return fmt.Errorf("store: replace embeddings %s: no vectors", rec.Name)
	}
	sparse := vecs[0].Sparse != nil
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("store: replace embeddings %s: %w", rec.Name, err)
	}
	defer tx.Rollback(ctx)

	index := pgx.Identifier{EmbeddingIndexName(rec.Name)}.Sanitize()
	if _, err := tx.Exec(ctx, `DROP INDEX IF EXISTS `+index); err != nil {
		return fmt.Errorf("store: replace embeddings %s: drop index: %w", rec.Name, err)
	}
	if _, err := tx.Exec(ctx, `
		INSERT INTO embedders (name, kind, dims, model, checksum, built_at)
		VALUES ($1, $2, $3, $4::text::jsonb, $5, now())
		ON CONFLICT (name) DO UPDATE SET kind = $2, dims = $3, model = $4::text::jsonb, checksum = $5, built_at = now()`,
		rec.Name, rec.Kind, rec.Dims, string(rec.Model), rec.Checksum); err != nil {
		return fmt.Errorf("store: replace embeddings %s: embedder row: %w", rec.Name, err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM verse_embeddings WHERE embedder = $1`, rec.Name); err != nil {
		return fmt.Errorf("store: replace embeddings %s: delete: %w", rec.Name, err)
	}
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"verse_embeddings"}, []string{"embedder", "verse_id", "dense", "sparse"},
		pgx.CopyFromSlice(len(vecs), func(i int) ([]any, error) {
			v := vecs[i]
			if (v.Sparse != nil) != sparse || (v.Dense != nil) == sparse {
				return nil, fmt.Errorf("verse %d: mixed or missing vector kinds", v.VerseID)
			}
			if sparse {
				return []any{rec.Name, int32(v.VerseID), nil, v.Sparse}, nil
			}
			return []any{rec.Name, int32(v.VerseID), v.Dense, nil}, nil
		}))
	if err != nil {
		return fmt.Errorf("store: replace embeddings %s: copy: %w", rec.Name, err)
	}
	if hnsw {
		ops := "vector_cosine_ops"
		if sparse {
			ops = "sparsevec_ip_ops"
		}
		// Building the graph is the slow part; give it the memory to do it
		// in one pass.
		if _, err := tx.Exec(ctx, `SET LOCAL maintenance_work_mem = '512MB'`); err != nil {
			return fmt.Errorf("store: replace embeddings %s: %w", rec.Name, err)
		}
		ddl := fmt.Sprintf(`CREATE INDEX %s ON verse_embeddings USING hnsw (%s %s) WITH (m = 16, ef_construction = 128) WHERE embedder = %s`,
			index, EmbeddingIndexExpr(sparse, rec.Dims), ops, quoteLiteral(rec.Name))
		if _, err := tx.Exec(ctx, ddl); err != nil {
			return fmt.Errorf("store: replace embeddings %s: create index: %w", rec.Name, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("store: replace embeddings %s: commit: %w", rec.Name, err)
	}
	if _, err := s.pool.Exec(ctx, `ANALYZE verse_embeddings`); err != nil {
		return fmt.Errorf("store: replace embeddings %s: analyze: %w", rec.Name, err)
	}
	return nil
}

// quoteLiteral quotes a string known to match embedderName as a SQL
// literal (DDL takes no parameters).
func quoteLiteral(s string) string { return "'" + s + "'" }

// VerseSearch asks SearchVerses for candidates: full-text matches of
// Query, nearest neighbours of the embedder's query vector, or both.
type VerseSearch struct {
	// Query is the text for full-text search; "" skips it.
	Query string
	// Candidates is how many verses each list returns.
	Candidates int
	// FullTextFallback fills the full-text list with verses that match only
	// some of the query's terms when too few match them all.
	FullTextFallback bool
	// Embedder names the vectors to search; "" skips vector search. Dims
	// and exactly one of Dense and Sparse describe the query vector.
	Embedder string
	Dims     int
	Dense    *pgvector.Vector
	Sparse   *pgvector.SparseVector
	// EfSearch, when positive, sets hnsw.ef_search for the search.
	EfSearch int
	// Exact scans every vector instead of using the HNSW index; it is the
	// only way for vectors stored without one.
	Exact bool
}

// VerseMatch is one candidate verse with its 1-based rank in each list (0
// when the list does not have it) and its score there: ts_rank_cd for full
// text, the inner product or cosine similarity for vectors.
type VerseMatch struct {
	Verse         corpus.Verse
	FullTextRank  int
	FullTextScore float64
	// FullTextAll is set when the verse matches every term of the query
	// (websearch_to_tsquery), not just some.
	FullTextAll bool
	VectorRank  int
	VectorScore float64
}

// Full text: websearch_to_tsquery ANDs every term, which finds nothing for
// most long, modern questions. So when fewer than $2 verses match all the
// terms, verses that match any of the query's lexemes fill the list after
// them (the fallback; the one-time filter skips its scan otherwise).
const fullTextCTE = `
q AS (
	SELECT websearch_to_tsquery('english', $1) AS qa,
	       (SELECT to_tsquery('simple', string_agg(quote_literal(l), ' | '))
	          FROM unnest(tsvector_to_array(to_tsvector('english', $1))) AS l) AS qo
),
ft_all AS (
	SELECT v.id, ts_rank_cd(v.tsv, q.qa) AS score
	FROM verses v, q
	WHERE v.tsv @@ q.qa
	ORDER BY score DESC, v.id
	LIMIT $2
),
ft_any AS (
	SELECT v.id, ts_rank_cd(v.tsv, q.qo) AS score
	FROM verses v, q
	WHERE %[1]s AND (SELECT count(*) FROM ft_all) < $2 AND v.tsv @@ q.qo AND NOT v.tsv @@ q.qa
	ORDER BY score DESC, v.id
	LIMIT $2
),
ft AS (
	SELECT id, score, all_terms, rank FROM (
		SELECT id, score, all_terms, row_number() OVER (ORDER BY all_terms DESC, score DESC, id) AS rank
		FROM (SELECT id, score, true AS all_terms FROM ft_all
		      UNION ALL SELECT id, score, false FROM ft_any) AS u) AS r
	WHERE rank <= $2
)`

// vectorCTE is the nearest-neighbour list; %[1]s is the indexed expression,
// %[2]s the distance operator, %[3]s the query vector's type and %[4]s the
// embedder literal, all from validated values.
const vectorCTE = `
vec0 AS (
	SELECT verse_id AS id, %[1]s %[2]s $3::%[3]s AS dist
	FROM verse_embeddings
	WHERE embedder = %[4]s
	ORDER BY dist
	LIMIT $2
),
vec AS (SELECT id, dist, row_number() OVER (ORDER BY dist, id) AS rank FROM vec0)`

// SearchVerses returns the candidates of both lists, joined to their
// verses, in one round trip.
func (s *Store) SearchVerses(ctx context.Context, q VerseSearch) ([]VerseMatch, error) {
	fullText, vector := q.Query != "", q.Embedder != ""
	if !fullText && !vector {
		return nil, nil
	}
	if q.Candidates <= 0 {
		q.Candidates = 50
	}
	args := []any{q.Query, q.Candidates}
	var ctes, ids string
	ftCols, vecCols := "0::bigint, 0::float8, false", "0::bigint, 0::float8"
	var joins string
	if fullText {
		ctes = fmt.Sprintf(fullTextCTE, strconv.FormatBool(q.FullTextFallback))
		ids = "SELECT id FROM ft"
		ftCols = "coalesce(ft.rank, 0), coalesce(ft.score, 0)::float8, coalesce(ft.all_terms, false)"
		joins += " LEFT JOIN ft ON ft.id = v.id"
	}
	if vector {
		if !ValidEmbedderName(q.Embedder) || q.Dims <= 0 || (q.Sparse == nil) == (q.Dense == nil) {
			return nil, fmt.Errorf("store: search verses: bad vector query for %q", q.Embedder)
		}
		sparse := q.Sparse != nil
		expr, op, typ := EmbeddingIndexExpr(true, q.Dims), "<#>", fmt.Sprintf("sparsevec(%d)", q.Dims)
		args = append(args, q.Sparse)
		if !sparse {
			expr, op, typ = EmbeddingIndexExpr(false, q.Dims), "<=>", fmt.Sprintf("vector(%d)", q.Dims)
			args[2] = q.Dense
		}
		if q.Exact {
			// Without the indexed expression the planner scans every row.
			expr = "dense"
			if sparse {
				expr = "sparse"
			}
		}
		if ctes != "" {
			ctes += ","
		}
		ctes += fmt.Sprintf(vectorCTE, expr, op, typ, quoteLiteral(q.Embedder))
		if ids != "" {
			ids += " UNION "
		}
		ids += "SELECT id FROM vec"
		vecCols = "coalesce(vec.rank, 0), coalesce(-vec.dist, 0)::float8"
		if !sparse {
			vecCols = "coalesce(vec.rank, 0), coalesce(1 - vec.dist, 0)::float8"
		}
		joins += " LEFT JOIN vec ON vec.id = v.id"
	}
	if !fullText {
		// $1 must still be typed.
		ctes = "q0 AS (SELECT $1::text AS t)," + ctes
	}
	sql := "WITH " + ctes + `
SELECT v.id, v.text, v.title, ` + ftCols + `, ` + vecCols + `
FROM (` + ids + `) AS ids JOIN verses v ON v.id = ids.id` + joins
	var rows pgx.Rows
	var err error
	if q.EfSearch > 0 && vector && !q.Exact {
		b := &pgx.Batch{}
		b.Queue(`SELECT set_config('hnsw.ef_search', $1, false)`, fmt.Sprint(q.EfSearch))
		b.Queue(sql, args...)
		br := s.pool.SendBatch(ctx, b)
		defer br.Close()
		if _, err := br.Exec(); err != nil {
			return nil, fmt.Errorf("store: search verses: %w", err)
		}
		rows, err = br.Query()
	} else {
		rows, err = s.pool.Query(ctx, sql, args...)
	}
	if err != nil {
		return nil, fmt.Errorf("store: search verses: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (VerseMatch, error) {
		var id int32
		var m VerseMatch
		var ftRank, vecRank int64
		if err := r.Scan(&id, &m.Verse.Text, &m.Verse.Title, &ftRank, &m.FullTextScore, &m.FullTextAll, &vecRank, &m.VectorScore); err != nil {
			return m, err
		}
		m.FullTextRank, m.VectorRank = int(ftRank), int(vecRank)
		m.Verse.ID = corpus.VerseID(id)
		m.Verse.Book, _ = corpus.BookByNumber(m.Verse.ID.Book())
		m.Verse.Chapter, m.Verse.Number = m.Verse.ID.Chapter(), m.Verse.ID.Verse()
		return m, nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: search verses: %w", err)
	}
	return out, nil
}
