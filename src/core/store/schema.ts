// The team store's schema in PostgreSQL: versioned migrations (applied by `store init` in one
// transaction), and the three roles. Rows that record what happened (intents, outcomes,
// verifications, evidence) are append-only: a trigger refuses UPDATE, DELETE and TRUNCATE for
// everyone, and the operator role has only INSERT and SELECT, so the database enforces both.

import { claimSendSql } from './claimSend';
import { REQUEST_TABLES, REQUESTS_MIGRATION } from './requestSchema';
import { SCHEMA } from './schemaName';

export { SCHEMA } from './schemaName';

export const ROLES = {
  operator: 'platform_explorer_operator',
  auditor: 'platform_explorer_auditor',
  admin: 'platform_explorer_admin',
} as const;
export type RoleName = keyof typeof ROLES;

const APPEND_ONLY = ['intents', 'outcomes', 'verifications', 'evidence'];

/** Migration N takes the schema from version N-1 to N; never edit one that shipped, add the next. */
export const MIGRATIONS: readonly string[] = [
  `
CREATE SEQUENCE ${SCHEMA}.seq;
CREATE TABLE ${SCHEMA}.batches (
  batch_id text PRIMARY KEY CHECK (batch_id ~ '^[A-Za-z0-9-]{1,64}$'),
  title_id text NOT NULL,
  operation text NOT NULL,
  record jsonb NOT NULL,
  confirm text NOT NULL,
  operator_fingerprint text NOT NULL,
  operator_name text NOT NULL,
  machine text NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE ${SCHEMA}.intents (
  id bigint PRIMARY KEY DEFAULT nextval('${SCHEMA}.seq'),
  batch_id text NOT NULL REFERENCES ${SCHEMA}.batches,
  platform_id text NOT NULL,
  action text NOT NULL,
  attempt integer NOT NULL CHECK (attempt > 0),
  at text NOT NULL,
  operator_fingerprint text NOT NULL,
  operator_name text NOT NULL,
  machine text NOT NULL,
  pid integer NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  lease_until timestamptz NOT NULL,
  UNIQUE (batch_id, platform_id, action, attempt)
);
CREATE INDEX intents_player ON ${SCHEMA}.intents (platform_id, action);
CREATE TABLE ${SCHEMA}.outcomes (
  seq bigint PRIMARY KEY DEFAULT nextval('${SCHEMA}.seq'),
  intent_id bigint UNIQUE REFERENCES ${SCHEMA}.intents,
  batch_id text NOT NULL REFERENCES ${SCHEMA}.batches,
  platform_id text NOT NULL,
  state text NOT NULL,
  at text NOT NULL,
  job_receipt_id text,
  title_ids jsonb,
  error text,
  operator_fingerprint text NOT NULL,
  operator_name text NOT NULL,
  machine text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX outcomes_batch ON ${SCHEMA}.outcomes (batch_id);
CREATE TABLE ${SCHEMA}.verifications (
  seq bigint PRIMARY KEY DEFAULT nextval('${SCHEMA}.seq'),
  batch_id text NOT NULL REFERENCES ${SCHEMA}.batches,
  platform_id text NOT NULL,
  at text NOT NULL,
  operator_fingerprint text NOT NULL,
  operator_name text NOT NULL,
  machine text NOT NULL
);
CREATE TABLE ${SCHEMA}.evidence (
  seq bigint PRIMARY KEY DEFAULT nextval('${SCHEMA}.seq'),
  subject text NOT NULL,
  body jsonb NOT NULL,
  operator_fingerprint text NOT NULL,
  operator_name text NOT NULL,
  machine text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE FUNCTION ${SCHEMA}.append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '${SCHEMA}.%: rows are append-only (% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
${APPEND_ONLY.map((t) => `CREATE TRIGGER ${t}_append_only BEFORE UPDATE OR DELETE ON ${SCHEMA}.${t} FOR EACH ROW EXECUTE FUNCTION ${SCHEMA}.append_only();
CREATE TRIGGER ${t}_no_truncate BEFORE TRUNCATE ON ${SCHEMA}.${t} FOR EACH STATEMENT EXECUTE FUNCTION ${SCHEMA}.append_only();`).join('\n')}
-- Claims one player's send in one statement: under a lock on the player and action, a new intent
-- (the next attempt) is inserted only when no run holds a live lease on it, it was not queued or
-- found deleted, another batch has not queued or is not sending it, and a send whose lease expired
-- without an outcome (unknown) is sent again only on the caller's confirmation.
${claimSendSql(false)}`,
  // 2: data requests (requestSchema.ts).
  REQUESTS_MIGRATION,
];

/** The schema version this build reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

const TABLES = ['batches', 'intents', 'outcomes', 'verifications', 'evidence', ...REQUEST_TABLES];

/** The roles (created when missing) and their grants, as of the current schema. */
export function rolesSql(): string {
  const create = Object.values(ROLES).map((r) => `DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${r}') THEN CREATE ROLE ${r} NOLOGIN; END IF;
END $$;`);
  const all = TABLES.map((t) => `${SCHEMA}.${t}`).join(', ');
  return [
    ...create,
    `REVOKE ALL ON SCHEMA ${SCHEMA} FROM PUBLIC;`,
    `REVOKE ALL ON FUNCTION ${SCHEMA}.claim_send(text, text, text, boolean, text, text, text, text, integer, integer) FROM PUBLIC;`,
    `GRANT USAGE ON SCHEMA ${SCHEMA} TO ${ROLES.operator}, ${ROLES.auditor}, ${ROLES.admin};`,
    `GRANT SELECT ON ${all}, ${SCHEMA}.schema_version TO ${ROLES.operator}, ${ROLES.auditor};`,
    `GRANT INSERT ON ${all} TO ${ROLES.operator};`,
    `GRANT USAGE ON SEQUENCE ${SCHEMA}.seq TO ${ROLES.operator};`,
    `GRANT EXECUTE ON FUNCTION ${SCHEMA}.claim_send(text, text, text, boolean, text, text, text, text, integer, integer) TO ${ROLES.operator};`,
    `GRANT ALL ON ${all}, ${SCHEMA}.schema_version TO ${ROLES.admin};`,
    `GRANT ALL ON SEQUENCE ${SCHEMA}.seq TO ${ROLES.admin};`,
    `GRANT EXECUTE ON FUNCTION ${SCHEMA}.claim_send(text, text, text, boolean, text, text, text, text, integer, integer) TO ${ROLES.admin};`,
  ].join('\n');
}
