// Creating and updating the team store's schema, and giving database users its roles: run with
// an admin's connection (a superuser, or a user who may create roles). Migrations are applied in
// one transaction, under a lock on the version row, and refused against a newer schema.
import pg from 'pg';
import { quoteForMessage } from '../ids';
import { connect, dbText, schemaVersion, storeWhere } from './connection';
import { MIGRATIONS, ROLES, rolesSql, SCHEMA, SCHEMA_VERSION, type RoleName } from './schema';
import { StoreError } from './types';

/** Creates or updates the schema and the roles; says what it did. */
export async function initStore(url: string): Promise<string> {
  const db = await connect({ url });
  try {
    await db.query('BEGIN');
    await db.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
    await db.query(`CREATE TABLE IF NOT EXISTS ${SCHEMA}.schema_version (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    await db.query(`LOCK TABLE ${SCHEMA}.schema_version IN EXCLUSIVE MODE`);
    const from = await schemaVersion(db);
    if (from > SCHEMA_VERSION) {
      throw new StoreError(`The team store ${storeWhere(url)} has schema version ${from}, newer than this Platform Explorer knows (version ${SCHEMA_VERSION}); nothing was changed. Update Platform Explorer.`);
    }
    for (let v = from + 1; v <= SCHEMA_VERSION; v++) await db.query(MIGRATIONS[v - 1]);
    await db.query(`INSERT INTO ${SCHEMA}.schema_version (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = $1, applied_at = now()`, [SCHEMA_VERSION]);
    await db.query(rolesSql());
    await db.query('COMMIT');
    return from === SCHEMA_VERSION
      ? `The team store ${storeWhere(url)} already has schema version ${SCHEMA_VERSION}; its roles (${Object.values(ROLES).join(', ')}) are in place.`
      : `The team store ${storeWhere(url)} now has schema version ${SCHEMA_VERSION} (it had ${from}); roles: ${Object.values(ROLES).join(', ')}.`;
  } catch (e) {
    await db.query('ROLLBACK').catch(() => undefined);
    if (e instanceof StoreError) throw e;
    throw new StoreError(`Cannot create the schema in the team store ${storeWhere(url)}: ${dbText(e, url)}. Nothing was changed (one transaction). Is the admin connection a superuser, or a user who may create schemas and roles?`);
  } finally {
    await db.end().catch(() => undefined);
  }
}

/** Gives the existing database user `user` one of the store's roles. */
export async function grantRole(url: string, role: RoleName, user: string): Promise<string> {
  const db = await connect({ url });
  try {
    const exists = await db.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [user]);
    if (exists.rowCount === 0) throw new StoreError(`There is no database user "${quoteForMessage(user, 63)}" in ${storeWhere(url)}: create it first (CREATE ROLE ... LOGIN PASSWORD ...), then grant the role.`);
    await db.query(`GRANT ${ROLES[role]} TO ${pg.escapeIdentifier(user)}`);
    return `${user} now has the ${role} role (${ROLES[role]}) in ${storeWhere(url)}.`;
  } catch (e) {
    if (e instanceof StoreError) throw e;
    throw new StoreError(`Cannot grant the ${role} role in ${storeWhere(url)}: ${dbText(e, url)}. Did store init run there, and is the admin connection allowed to grant roles?`);
  } finally {
    await db.end().catch(() => undefined);
  }
}
