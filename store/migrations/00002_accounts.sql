-- +goose Up

-- Plans carry the limits the API enforces. Administrators edit the numbers;
-- the set of plan names is fixed by the product.
CREATE TABLE plans (
    name                text PRIMARY KEY CHECK (name IN ('free', 'developer', 'builder', 'pro', 'internal')),
    requests_per_minute integer NOT NULL CHECK (requests_per_minute > 0),
    concurrent_requests integer NOT NULL CHECK (concurrent_requests > 0),
    asks_per_day        integer NOT NULL CHECK (asks_per_day >= 0),
    asks_per_month      integer NOT NULL CHECK (asks_per_month >= 0),
    max_active_keys     integer NOT NULL CHECK (max_active_keys >= 0)
);

INSERT INTO plans (name, requests_per_minute, concurrent_requests, asks_per_day, asks_per_month, max_active_keys) VALUES
    ('free',          5,    1,      10,      100,   5),
    ('developer',    60,    4,     200,     3000,  10),
    ('builder',     300,   10,    1000,    20000,  25),
    ('pro',        1200,   25,    5000,   100000,  50),
    ('internal', 100000, 1000, 1000000, 10000000, 100);

-- Emails are stored trimmed and lower-cased by the application (the CHECK
-- holds it to that), so a plain unique index is case-insensitive without
-- the citext extension. password_hash is an argon2id PHC string, NULL for
-- accounts created from the CLI that never sign in to the website.
CREATE TABLE accounts (
    id            bigserial PRIMARY KEY,
    email         text NOT NULL UNIQUE CHECK (email <> '' AND email = lower(btrim(email))),
    password_hash text,
    plan          text NOT NULL DEFAULT 'free' REFERENCES plans (name),
    status        text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
    is_admin      boolean NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- API keys. Only the SHA-256 of a key is stored: keys carry 256 random
-- bits, so a fast hash cannot be inverted by guessing, and it is what lets
-- the hot path find a key with one index probe (a salted slow hash could
-- not be looked up). public_id (key_...) names a key in the CLI and URLs;
-- prefix (svc_live_AbCd…) is what people see to recognise it.
-- Expiry is not a status: a key is expired when expires_at <= now, checked
-- at request time against the service's clock.
CREATE TABLE api_keys (
    id           bigserial PRIMARY KEY,
    public_id    text NOT NULL UNIQUE,
    account_id   bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name         text NOT NULL DEFAULT '',
    prefix       text NOT NULL,
    hash         bytea NOT NULL UNIQUE CHECK (length(hash) = 32),
    test         boolean NOT NULL DEFAULT false,
    status       text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked', 'disabled')),
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    expires_at   timestamptz,
    revoked_at   timestamptz,
    replaced_by  bigint REFERENCES api_keys (id),
    CHECK ((status = 'revoked') = (revoked_at IS NOT NULL))
);

-- "Active keys of an account" (the MaxActiveKeys check, the settings page)
-- reads only this small partial index.
CREATE INDEX api_keys_active_by_account ON api_keys (account_id) WHERE status = 'active';
CREATE INDEX api_keys_by_account ON api_keys (account_id, created_at);

-- Revocation is permanent: the database refuses to bring a revoked key back,
-- whatever code runs the UPDATE.
-- +goose StatementBegin
CREATE FUNCTION api_keys_revocation_is_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status = 'revoked' AND NEW.status <> 'revoked' THEN
        RAISE EXCEPTION 'api key % is revoked; revocation cannot be undone', OLD.public_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER api_keys_revocation_is_final BEFORE UPDATE OF status ON api_keys
    FOR EACH ROW EXECUTE FUNCTION api_keys_revocation_is_final();

-- Website sessions. id is the SHA-256 of the random token in the cookie, so
-- a leaked table does not hand out sessions.
CREATE TABLE sessions (
    id         bytea PRIMARY KEY CHECK (length(id) = 32),
    account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    csrf_token text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account_id);
CREATE INDEX sessions_expires_at ON sessions (expires_at);

-- +goose Down
DROP TABLE sessions;
DROP TABLE api_keys;
DROP FUNCTION api_keys_revocation_is_final();
DROP TABLE accounts;
DROP TABLE plans;
