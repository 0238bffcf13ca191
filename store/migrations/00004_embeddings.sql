-- +goose Up

-- One row per embedder whose vectors are stored. model holds what queries
-- need to be embedded the same way as the verses: for the local embedder
-- its vocabulary, idf and average length (built from the corpus by
-- ingest); for an API embedder the model name and dimensions. checksum
-- identifies model and corpus together, so an unchanged pair is not
-- rebuilt.
CREATE TABLE embedders (
    name     text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_]{0,30}$'),
    kind     text NOT NULL CHECK (kind IN ('local', 'openai')),
    dims     integer NOT NULL CHECK (dims > 0),
    model    jsonb NOT NULL,
    checksum text NOT NULL,
    built_at timestamptz NOT NULL DEFAULT now()
);

-- Each verse's vector under each embedder: dense for API models, sparse for
-- the local one. The HNSW indexes need fixed dimensions, which only the
-- build knows, so the build creates them per embedder as partial
-- expression indexes, e.g.
--   CREATE INDEX verse_embeddings_local_hnsw ON verse_embeddings
--     USING hnsw ((sparse::sparsevec(14000)) sparsevec_ip_ops) WHERE embedder = 'local';
-- and searches use the same expression and predicate.
CREATE TABLE verse_embeddings (
    embedder text NOT NULL REFERENCES embedders (name) ON DELETE CASCADE,
    verse_id integer NOT NULL REFERENCES verses (id) ON DELETE CASCADE,
    dense    vector,
    sparse   sparsevec,
    PRIMARY KEY (embedder, verse_id),
    CHECK ((dense IS NULL) <> (sparse IS NULL))
);

-- +goose Down
DROP TABLE verse_embeddings;
DROP TABLE embedders;
