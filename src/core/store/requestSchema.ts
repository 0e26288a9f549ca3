// Migration 2 of the team store (issue 33): data requests as rows. A request's state is a chain of
// saves (each the sealed state text, core/requests/seal.ts, with its generation unique per
// request, so two runs never both write save N); each journal of its actions is a team store batch
// (its sends claimed by claim_send like any batch's); its evidence packs are rows of `evidence`
// (subject: the request ID). Saves and journals are append-only like the batch's rows.
import { claimSendSql } from './claimSend';
import { SCHEMA } from './schemaName';

export const REQUEST_TABLES = ['requests', 'request_saves', 'request_journals'];

const who = 'operator_fingerprint text NOT NULL, operator_name text NOT NULL, machine text NOT NULL';

export const REQUESTS_MIGRATION = `
CREATE TABLE ${SCHEMA}.requests (
  request_id text PRIMARY KEY CHECK (request_id ~ '^dr-[0-9]{8}-[0-9a-f]{6}$'),
  ${who},
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE TABLE ${SCHEMA}.request_saves (
  seq bigint PRIMARY KEY DEFAULT nextval('${SCHEMA}.seq'),
  request_id text NOT NULL REFERENCES ${SCHEMA}.requests,
  generation integer NOT NULL CHECK (generation > 0),
  state text NOT NULL,
  mac text NOT NULL,
  ${who},
  saved_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (request_id, generation)
);
CREATE TABLE ${SCHEMA}.request_journals (
  request_id text NOT NULL REFERENCES ${SCHEMA}.requests,
  name text NOT NULL,
  kind text NOT NULL,
  title_id text NOT NULL,
  batch_id text NOT NULL UNIQUE REFERENCES ${SCHEMA}.batches,
  ${who},
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (request_id, name)
);
-- claim_send as in migration 1, but a request's journal is checked against that request's own
-- journals only (intent unique per request, player and action: a later request may export the same
-- person's data again); a plain deletion batch is still checked against every batch.
${claimSendSql(true)}CREATE INDEX evidence_subject ON ${SCHEMA}.evidence (subject);
${REQUEST_TABLES.map((t) => `CREATE TRIGGER ${t}_append_only BEFORE UPDATE OR DELETE ON ${SCHEMA}.${t} FOR EACH ROW EXECUTE FUNCTION ${SCHEMA}.append_only();
CREATE TRIGGER ${t}_no_truncate BEFORE TRUNCATE ON ${SCHEMA}.${t} FOR EACH STATEMENT EXECUTE FUNCTION ${SCHEMA}.append_only();`).join('\n')}
`;
