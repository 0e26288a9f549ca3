// The team store's claim of one send (migration 1, and migration 2's request-scoped version).
import { SCHEMA } from './schemaName';

/**
 * claim_send: one player's send claimed in one statement. Scoped (migration 2, data requests): a
 * request's journal is checked only against that request's other journals (an intent unique per
 * request, player and action; a send of another journal of it left unknown counts as taken), a
 * plain batch against every batch as before.
 */
export function claimSendSql(scoped: boolean): string {
  return `${scoped ? 'CREATE OR REPLACE' : 'CREATE'} FUNCTION ${SCHEMA}.claim_send(p_batch text, p_player text, p_action text, p_resend_unknown boolean, p_at text,
  p_fingerprint text, p_name text, p_machine text, p_pid integer, p_lease_seconds integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  last record;
  next_attempt integer := 1;
  new_id bigint;${scoped ? '\n  req text;' : ''}
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(p_player || '/' || p_action, 0));
${scoped ? `  SELECT request_id INTO req FROM ${SCHEMA}.request_journals WHERE batch_id = p_batch;\n` : ''}  SELECT i.attempt, i.lease_until > clock_timestamp() AS live, o.state INTO last
    FROM ${SCHEMA}.intents i LEFT JOIN ${SCHEMA}.outcomes o ON o.intent_id = i.id
    WHERE i.batch_id = p_batch AND i.platform_id = p_player AND i.action = p_action
    ORDER BY i.attempt DESC LIMIT 1;
  IF FOUND THEN
    next_attempt := last.attempt + 1;
    IF last.state IS NULL AND last.live THEN RETURN 'held'; END IF;
    IF last.state IS NULL AND NOT p_resend_unknown THEN RETURN 'unknown'; END IF;
    IF last.state IN ('queued', 'already-deleted') THEN RETURN 'done'; END IF;
  END IF;
  IF EXISTS (SELECT 1 FROM ${SCHEMA}.outcomes o WHERE o.batch_id = p_batch AND o.platform_id = p_player AND o.state IN ('queued', 'already-deleted'))
     OR EXISTS (SELECT 1 FROM ${SCHEMA}.verifications v WHERE v.batch_id = p_batch AND v.platform_id = p_player) THEN
    RETURN 'done';
  END IF;
  IF EXISTS (SELECT 1 FROM ${SCHEMA}.intents i LEFT JOIN ${SCHEMA}.outcomes o ON o.intent_id = i.id
             WHERE i.platform_id = p_player AND i.action = p_action AND i.batch_id <> p_batch${scoped ? `
               AND (req IS NULL OR i.batch_id IN (SELECT batch_id FROM ${SCHEMA}.request_journals WHERE request_id = req))` : ''}
               AND (o.state IN ('queued', 'already-deleted') OR (o.intent_id IS NULL AND ${scoped ? '(i.lease_until > clock_timestamp() OR req IS NOT NULL)' : 'i.lease_until > clock_timestamp()'}))) THEN
    RETURN 'other-batch';
  END IF;
  INSERT INTO ${SCHEMA}.intents (batch_id, platform_id, action, attempt, at, operator_fingerprint, operator_name, machine, pid, lease_until)
    VALUES (p_batch, p_player, p_action, next_attempt, p_at, p_fingerprint, p_name, p_machine, p_pid, clock_timestamp() + make_interval(secs => p_lease_seconds))
    RETURNING id INTO new_id;
  RETURN 'claimed:' || new_id;
END $$;
`;
}
