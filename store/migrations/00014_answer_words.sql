-- +goose Up

-- words are the Strong's dictionary entries a stored answer or chat reply explains (a
-- question about a word's meaning), as the API returned them: a JSON
-- array of api.WordEntry, empty for any other answer and for answers
-- stored before the column.
ALTER TABLE answers ADD COLUMN words jsonb NOT NULL DEFAULT '[]';

-- A chat reply's, likewise.
ALTER TABLE chat_turns ADD COLUMN words jsonb NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE chat_turns DROP COLUMN words;
ALTER TABLE answers DROP COLUMN words;
