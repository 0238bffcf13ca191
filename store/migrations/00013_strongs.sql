-- +goose Up

-- strongs is Strong's Hebrew and Greek dictionary (Debian's
-- sword-dict-strongs-*), one row a word: what /ask answers a question
-- about a word's meaning from ("What does agape mean?"). Written by ingest
-- with the verses.
CREATE TABLE strongs (
    number          text PRIMARY KEY CHECK (number ~ '^[GH][1-9][0-9]*$'),
    lemma           text NOT NULL DEFAULT '',
    transliteration text NOT NULL DEFAULT '',
    pronunciation   text NOT NULL DEFAULT '',
    gloss           text NOT NULL DEFAULT '',
    renderings      text[] NOT NULL DEFAULT '{}'
);

-- verse_words are the KJV's Strong's-tagged words, a row per word and
-- number: which Hebrew or Greek word a verse's English word translates
-- (Genesis 17:5's "Abraham" is H85). number has no foreign key: the KJV
-- module tags a handful of numbers the dictionaries lack.
CREATE TABLE verse_words (
    verse_id integer NOT NULL REFERENCES verses (id) ON DELETE CASCADE,
    ord      smallint NOT NULL CHECK (ord >= 0),
    number   text NOT NULL,
    word     text NOT NULL,
    PRIMARY KEY (verse_id, ord, number)
);
CREATE INDEX verse_words_number_idx ON verse_words (number);

-- +goose Down
DROP TABLE verse_words;
DROP TABLE strongs;
