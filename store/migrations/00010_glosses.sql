-- +goose Up

-- glosses are the meanings Strong's dictionary gives (the definition before
-- its list of KJV renderings, without etymology) of the Hebrew and Greek
-- words the KJV module tags in the verse, each once: a low-weight field of
-- the retrieval index, bridging a reader's words to the sense of the
-- original ("to love (in a social or moral sense)"). Derived at ingest from
-- the KJV's Strong's tags and Debian's Strong's dictionaries.
ALTER TABLE verses ADD COLUMN glosses text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE verses DROP COLUMN glosses;
