-- +goose Up

-- Answers given by /ask and the website's ask page, kept so that each has a
-- public canonical page. Nothing here identifies the asker: no account, key,
-- address or session. The cited passages are stored as verse id ranges, not
-- text: pages render the text from verses, the one source of Scripture. No
-- foreign key to verses, so re-ingesting the corpus (TRUNCATE ... CASCADE)
-- leaves answers alone; verse ids are stable across ingests.
CREATE TABLE answers (
    id         text PRIMARY KEY CHECK (id ~ '^ans_[0-9A-Za-z]{16,40}$'),
    question   text NOT NULL CHECK (question <> ''),
    answer     text NOT NULL,
    summary    text NOT NULL,
    refs       jsonb NOT NULL,
    topics     jsonb NOT NULL,
    generator  text NOT NULL,
    source     text NOT NULL CHECK (source IN ('api', 'web')),
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX answers_created_at ON answers (created_at);

-- +goose Down
DROP TABLE answers;
