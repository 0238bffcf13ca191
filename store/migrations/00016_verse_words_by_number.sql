-- +goose Up

-- verse_words by number and verse: GET /words/{number} pages a lemma's
-- verses in canonical order (SELECT DISTINCT verse_id ... WHERE number =
-- $1 ORDER BY verse_id LIMIT ... OFFSET ...). With the number alone
-- indexed, Postgres walked the primary key (verse_id, ord, number) in
-- order and filtered it: 23 ms for agape's first page, against well under
-- one with this index, which also serves every lookup the old one did.
CREATE INDEX verse_words_number_verse_idx ON verse_words (number, verse_id);
DROP INDEX verse_words_number_idx;

-- What the KJV's tags give each lemma, counted once at ingest (CopyStrongs)
-- rather than on each request: "and" (G2532) is 9,000 tagged words.
-- uses counts a lemma's tagged words, verses the verses holding them;
-- strongs_words the English words of them (lower case, without a leading
-- article or a possessive), with how many times.
ALTER TABLE strongs ADD COLUMN uses integer NOT NULL DEFAULT 0 CHECK (uses >= 0);
ALTER TABLE strongs ADD COLUMN verses integer NOT NULL DEFAULT 0 CHECK (verses >= 0 AND verses <= uses);
CREATE TABLE strongs_words (
    number text NOT NULL,
    word   text NOT NULL CHECK (word <> ''),
    count  integer NOT NULL CHECK (count > 0),
    PRIMARY KEY (number, word)
);

-- +goose Down
DROP TABLE strongs_words;
ALTER TABLE strongs DROP COLUMN verses;
ALTER TABLE strongs DROP COLUMN uses;
CREATE INDEX verse_words_number_idx ON verse_words (number);
DROP INDEX verse_words_number_verse_idx;
