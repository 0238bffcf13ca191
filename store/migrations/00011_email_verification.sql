-- +goose Up

-- E-mail verification (issue 14: sign-up no longer tells whether an address
-- has an account). verified_at is when the address was proved to belong to
-- the account. Accounts made before this migration, and those an operator
-- makes with the CLI, count as verified; a website sign-up starts unverified
-- and cannot sign in until its link is followed (or `selah accounts verify`).
ALTER TABLE accounts ADD COLUMN verified_at timestamptz;
UPDATE accounts SET verified_at = created_at;

-- One row per verification link sent. token_hash is the SHA-256 of the
-- link's token (256 random bits, so a fast hash cannot be inverted); the
-- token itself exists only in the e-mail. Each row holds the password hash
-- chosen in the sign-up that sent it, which following the link sets on the
-- account: whoever follows a link gets the password chosen with it, never
-- one that an earlier sign-up with the same address (perhaps someone else's)
-- chose. Following one link deletes them all.
CREATE TABLE email_verifications (
    token_hash    bytea PRIMARY KEY CHECK (length(token_hash) = 32),
    account_id    bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    password_hash text NOT NULL,
    created_at    timestamptz NOT NULL,
    expires_at    timestamptz NOT NULL
);
CREATE INDEX email_verifications_by_account ON email_verifications (account_id);

-- +goose Down
DROP TABLE email_verifications;
ALTER TABLE accounts DROP COLUMN verified_at;
