-- +goose Up

-- One row per accepted Ask call: the durable record the Ask quotas are
-- counted from. Redis holds the live counters and is re-seeded from this
-- table when it loses them. reservation_id is the quota reservation the Ask
-- was admitted under, so recording it twice is a no-op. day is the UTC day
-- of at (when the Ask was admitted), the unit both quota windows count in.
CREATE TABLE ask_usage (
    reservation_id text PRIMARY KEY,
    account_id     bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    at             timestamptz NOT NULL,
    day            date NOT NULL
);
CREATE INDEX ask_usage_by_account_day ON ask_usage (account_id, day);

-- +goose Down
DROP TABLE ask_usage;
