-- +goose Up

-- Nave's Topical Bible, whole: its topics (people, places, events, themes),
-- their sub-entries with the verses Nave lists for each, and the "See X"
-- links between topics. Ingest replaces all four tables together with the
-- verses, in the corpus transaction (store.CopyNaves). Ids are ingest's own (topics in the
-- module's index order, entries in document order), stable only within one
-- ingest.
CREATE TABLE nave_topics (
    id    integer PRIMARY KEY,
    -- The key as Nave writes it: "MELCHIZEDEK", "OLIVES, MOUNT OF".
    title text NOT NULL UNIQUE CHECK (title <> '')
);

-- A sub-entry: a descriptive phrase ("King of Salem") under its topic, and
-- under the entry it is listed beneath when Nave nests it (a numbered sense
-- of a name, a heading like "HISTORY OF", a grouping item like "Instances
-- of"), so the full sense of an entry can be read from its parents.
CREATE TABLE nave_entries (
    id        integer PRIMARY KEY,
    topic_id  integer NOT NULL REFERENCES nave_topics (id) ON DELETE CASCADE,
    parent_id integer REFERENCES nave_entries (id) ON DELETE CASCADE,
    ord       integer NOT NULL CHECK (ord >= 0),
    phrase    text NOT NULL,
    UNIQUE (topic_id, ord)
);

-- The verses of an entry as the runs Nave lists (Heb 7:1-21 is one row),
-- in Nave's order. Verse ids as in verses; a run stays within one book. No
-- foreign key to verses: the reader admits only valid KJV verses, and the
-- two checks per row cost more than the rest of the Nave's load (measured:
-- 78,000 rows in 4.5 s with them, 1.8 s without, on a loaded machine).
CREATE TABLE nave_entry_verses (
    entry_id    integer NOT NULL REFERENCES nave_entries (id) ON DELETE CASCADE,
    ord         integer NOT NULL CHECK (ord >= 0),
    first_verse integer NOT NULL,
    last_verse  integer NOT NULL,
    PRIMARY KEY (entry_id, ord),
    CHECK (first_verse <= last_verse AND first_verse / 1000000 = last_verse / 1000000)
);
CREATE INDEX nave_entry_verses_first ON nave_entry_verses (first_verse);

-- "See CARE" under ANXIETY: the entry that holds the link and the title it
-- names. target_id is the topic of that title, NULL when Nave has none (it
-- writes "See GOD, MERCY OF" for a section of GOD).
CREATE TABLE nave_see (
    entry_id  integer NOT NULL REFERENCES nave_entries (id) ON DELETE CASCADE,
    ord       integer NOT NULL CHECK (ord >= 0),
    target    text NOT NULL CHECK (target <> ''),
    target_id integer REFERENCES nave_topics (id) ON DELETE CASCADE,
    PRIMARY KEY (entry_id, ord)
);
CREATE INDEX nave_see_target ON nave_see (target_id);

-- +goose Down
DROP TABLE nave_see;
DROP TABLE nave_entry_verses;
DROP TABLE nave_entries;
DROP TABLE nave_topics;
