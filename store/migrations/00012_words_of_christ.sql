-- +goose Up

-- words_of_christ is set on a verse holding words of Jesus: the KJV
-- module marks them (<q who="Jesus">, the red letters of printed
-- editions). /ask answers a question about what Jesus said or taught from
-- his words first. Derived at ingest.
ALTER TABLE verses ADD COLUMN words_of_christ boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE verses DROP COLUMN words_of_christ;
