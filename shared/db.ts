import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Constructor } from '@mikro-orm/core';
import type { Migration } from '@mikro-orm/migrations';
import { Client } from 'pg';
import { config, redactUrl } from './config';
import { logger } from './logger';

export { MikroORM };
export type { EntityManager } from '@mikro-orm/postgresql';

/** A startup failure whose message is the whole story: printed as one line, no stack trace. */
export class StartupError extends Error {}

export interface OrmDefinition {
  /** The subgraph's name, also its PostgreSQL schema. */
  name: string;
  entities: Constructor<object>[];
  migrations: Constructor<Migration>[];
}

function pgUnreachable(url: string, err: unknown): StartupError {
  const reason = (err as { code?: string; message?: string }).code ?? (err as Error).message;
  return new StartupError(
    `Cannot reach PostgreSQL at ${redactUrl(url)} (${reason}). Start it (for example: ` +
      `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start) or set DATABASE_URL.`,
  );
}

/** Creates the configured database when it does not exist yet, so a fresh machine needs no manual step. */
export async function ensureDatabase(url = config().DATABASE_URL): Promise<void> {
  const target = new URL(url);
  const dbName = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!dbName) throw new StartupError(`DATABASE_URL ${redactUrl(url)} names no database`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (err) {
    throw pgUnreachable(url, err);
  }
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [dbName]);
    if (found.rowCount === 0) {
      await client.query(`create database "${dbName.replace(/"/g, '""')}"`).catch((err: { code?: string }) => {
        // Another process (split mode, replicas) created it meanwhile: "already exists", or a unique violation
        // when both got past the check at the same moment.
        if (err.code !== '42P04' && err.code !== '23505') throw err;
      });
      logger.info({ database: dbName }, 'created database');
    }
  } finally {
    await client.end();
  }
}

/** The configured read replicas (DATABASE_REPLICA_URLS); none by default. */
export function replicaUrls(): string[] {
  return (config().DATABASE_REPLICA_URLS ?? '').split(',').filter(Boolean);
}

/**
 * `reads: 'replica'` builds the ORM whose non-transactional reads go to a read replica (DATABASE_REPLICA_URLS);
 * its flushes and transactions still go to the primary. The default ORM reads and writes on the primary only.
 */
export function ormOptions(def: OrmDefinition, url = config().DATABASE_URL, reads: 'primary' | 'replica' = 'primary'): Options {
  const replicas = reads === 'replica' ? replicaUrls().map((clientUrl, i) => ({ name: `replica-${i + 1}`, clientUrl })) : [];
  return {
    clientUrl: url,
    replicas,
    preferReadReplicas: replicas.length > 0,
    schema: def.name,
    // Each schema's ORM keeps its own request and transaction context: a consumer's transaction in one schema must
    // not become the context of another schema's EntityManager asked within it (peers in one process).
    contextName: def.name,
    entities: def.entities,
    extensions: [Migrator],
    migrations: {
      tableName: 'mikro_orm_migrations',
      migrationsList: def.migrations.map((m) => ({ name: m.name, class: m })),
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    pool: { min: 0, max: config().DB_POOL_MAX },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    debug: false,
    logger: (msg) => logger.debug({ orm: def.name }, msg),
    driverOptions: { connection: { application_name: `ccp-${def.name}` } },
  };
}

export async function openOrm(
  def: OrmDefinition,
  url = config().DATABASE_URL,
  reads: 'primary' | 'replica' = 'primary',
): Promise<MikroORM> {
  try {
    return await MikroORM.init(ormOptions(def, url, reads));
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code && ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', '3D000', '28P01', '28000'].includes(code)) {
      throw pgUnreachable(url, err);
    }
    throw err;
  }
}

/**
 * Applies the subgraph's pending migrations. A transaction-scoped advisory lock keyed by the schema name makes
 * concurrent starts (split mode, several replicas) apply each migration once; the migrations run in that same
 * transaction. Nothing outlives the transaction, so this works through a pooler in transaction mode (PgBouncer).
 */
export async function migrate(orm: MikroORM, name: string): Promise<void> {
  const connection = orm.em.getConnection('write');
  const applied = await connection.transactional(async (trx) => {
    await connection.execute('select pg_advisory_xact_lock(hashtext(?))', [`ccp-migrations-${name}`], 'all', trx);
    return orm.getMigrator().up({ transaction: trx });
  });
  if (applied.length) logger.info({ schema: name, migrations: applied.map((m) => m.name) }, 'applied migrations');
}
