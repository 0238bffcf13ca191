-- +goose Up
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE books (
    number    smallint PRIMARY KEY CHECK (number BETWEEN 1 AND 66),
    osis      text NOT NULL UNIQUE,
    name      text NOT NULL,
    testament text NOT NULL CHECK (testament IN ('OT', 'NT')),
    chapters  smallint NOT NULL
);

-- One row per KJV verse. id is BBCCCVVV, so a passage is a BETWEEN range.
-- web_text is the World English Bible wording mapped onto the KJV verse: a
-- retrieval aid for modern wording, never returned as passage text.
CREATE TABLE verses (
    id        integer PRIMARY KEY,
    book      smallint NOT NULL REFERENCES books (number),
    chapter   smallint NOT NULL,
    verse     smallint NOT NULL,
    text      text NOT NULL CHECK (text <> ''),
    title     text NOT NULL DEFAULT '',
    paragraph boolean NOT NULL DEFAULT false,
    web_text  text NOT NULL DEFAULT '',
    tsv       tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', text), 'A') ||
        setweight(to_tsvector('english', web_text), 'B')
    ) STORED,
    UNIQUE (book, chapter, verse)
);
CREATE INDEX verses_tsv_idx ON verses USING gin (tsv);

-- What was ingested, so a re-run with unchanged modules is skipped.
CREATE TABLE corpus_modules (
    name        text PRIMARY KEY,
    role        text NOT NULL,
    version     text NOT NULL,
    checksum    text NOT NULL,
    entries     integer NOT NULL,
    ingested_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE corpus_modules;
DROP TABLE verses;
DROP TABLE books;
