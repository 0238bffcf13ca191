-- +goose Up

-- The website's chat. A conversation belongs to a visitor: the browser holds
-- a random token in the selah_visitor cookie, and the database holds its
-- SHA-256 only, as for sessions. Nothing here names an account or an
-- address, and the API reads none of these tables. Deleting a conversation
-- deletes its turns.
CREATE TABLE chat_conversations (
    id         text PRIMARY KEY CHECK (id ~ '^chat_[0-9A-Za-z]{16,40}$'),
    visitor    bytea NOT NULL CHECK (length(visitor) = 32),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_conversations_visitor ON chat_conversations (visitor, updated_at DESC);

-- One turn: the visitor's message and the grounded reply. The cited
-- passages are verse id ranges, as in answers; pages read the text from
-- verses.
CREATE TABLE chat_turns (
    id              text PRIMARY KEY CHECK (id ~ '^msg_[0-9A-Za-z]{16,40}$'),
    conversation_id text NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
    seq             integer NOT NULL CHECK (seq >= 1),
    question        text NOT NULL CHECK (question <> ''),
    answer          text NOT NULL,
    summary         text NOT NULL,
    refs            jsonb NOT NULL,
    topics          jsonb NOT NULL,
    generator       text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (conversation_id, seq)
);

-- Reports of answers ("Report this answer"), read by administrators only
-- (selah reports list, /admin/reports). A report keeps the question and the
-- answer as they were shown, so it stays readable after a conversation is
-- deleted; it holds nothing about who reported.
CREATE TABLE reports (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind       text NOT NULL CHECK (kind IN ('answer', 'chat')),
    subject_id text NOT NULL,
    question   text NOT NULL,
    answer     text NOT NULL,
    reason     text NOT NULL CHECK (reason IN ('inaccurate', 'unhelpful', 'offensive', 'other')),
    details    text NOT NULL DEFAULT '' CHECK (char_length(details) <= 1000),
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reports_created_at ON reports (created_at DESC);

-- +goose Down
DROP TABLE reports;
DROP TABLE chat_turns;
DROP TABLE chat_conversations;
