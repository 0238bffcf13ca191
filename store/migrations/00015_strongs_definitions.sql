-- +goose Up

-- definition is an entry's meaning as readers see it (corpus.Lemma's
-- Definition: the numbers it cites kept, "(much like G1)"); related are
-- the Strong's numbers the entry cites. Ingest writes both; until the
-- next ingest they are empty, and readers fall back to the gloss.
ALTER TABLE strongs ADD COLUMN definition text NOT NULL DEFAULT '';
ALTER TABLE strongs ADD COLUMN related text[] NOT NULL DEFAULT '{}';

-- +goose Down
ALTER TABLE strongs DROP COLUMN related;
ALTER TABLE strongs DROP COLUMN definition;
