package store

import (
	"context"
	"fmt"
	"regexp"
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

// IndexText is one verse as retrieval indexes read it.
type IndexText struct {
	ID      corpus.VerseID
	Text    string
	WebText string
	Glosses string
}

var embedderName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,30}$`)

// ValidEmbedderName reports whether name can name an embedder: it becomes
// part of an index name and a SQL literal, so it is held to [a-z0-9_].
func ValidEmbedderName(name string) bool { return embedderName.MatchString(name) }

// Embedder returns the embedders row called name, or selah.ErrNotFound.
func (s *Store) Embedder(ctx context.Context, name string) (EmbedderRecord, error) {
	var r EmbedderRecord
	var model string
	err := s.pool.QueryRow(ctx, `
		SELECT e.name, e.kind, e.dims, e.model::text, e.checksum, e.built_at,
		       (SELECT count(*) FROM verse_embeddings v WHERE v.embedder = e.name)
		FROM embedders e WHERE e.name = $1`, name).
		Scan(&r.Name, &r.Kind, &r.Dims, &model, &r.Checksum, &r.BuiltAt, &r.Vectors)
	if err != nil {
		return r, notFound("embedder "+name, err)
	}
	r.Model = []byte(model)
	return r, nil
}

// IndexTexts returns every verse's KJV and WEB text and Strong's glosses in
// canonical order.
func (s *Store) IndexTexts(ctx context.Context) ([]IndexText, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, text, web_text, glosses FROM verses ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: index texts: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (IndexText, error) {
		var id int32
		var t IndexText
		err := r.Scan(&id, &t.Text, &t.WebText, &t.Glosses)
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

// Nearest is one verse near a query vector, with its cosine similarity.
type Nearest struct {
	Verse      corpus.VerseID
	Similarity float64
}

// NearestVerses returns the limit verses whose vectors under embedder are
// nearest v by cosine distance, nearest first, through the embedder's HNSW
// index (whose expression, EmbeddingIndexExpr, the query repeats);
// efSearch, when positive, sets hnsw.ef_search for the search.
func (s *Store) NearestVerses(ctx context.Context, embedder string, v pgvector.Vector, limit, efSearch int) ([]Nearest, error) {
	dims := len(v.Slice())
	if !ValidEmbedderName(embedder) || dims == 0 || limit <= 0 {
		return nil, fmt.Errorf("store: nearest verses: bad query for %q", embedder)
	}
	sql := fmt.Sprintf(`SELECT verse_id, 1 - (%[1]s <=> $1::vector(%[2]d)) FROM verse_embeddings
		WHERE embedder = %[3]s ORDER BY %[1]s <=> $1::vector(%[2]d), verse_id LIMIT $2`,
		EmbeddingIndexExpr(false, dims), dims, quoteLiteral(embedder))
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: nearest verses: %w", err)
	}
	defer tx.Rollback(ctx)
	if efSearch > 0 {
		if _, err := tx.Exec(ctx, `SELECT set_config('hnsw.ef_search', $1, true)`, fmt.Sprint(efSearch)); err != nil {
			return nil, fmt.Errorf("store: nearest verses: %w", err)
		}
	}
	rows, err := tx.Query(ctx, sql, v, limit)
	if err != nil {
		return nil, fmt.Errorf("store: nearest verses: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Nearest, error) {
		var id int32
		var n Nearest
		err := r.Scan(&id, &n.Similarity)
		n.Verse = corpus.VerseID(id)
		return n, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: nearest verses: %w", err)
	}
	return out, tx.Commit(ctx)
}
