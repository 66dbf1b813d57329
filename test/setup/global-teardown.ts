import { Client } from 'pg';
import { Redis } from 'ioredis';
import { deletePrefix } from '../../shared/redis';
import { checkRunLog } from './log-check';

/**
 * Drops the run's database and deletes its Redis keys (KEEP_TEST_DB=1 keeps them to inspect), then checks the run's
 * log for patient data and credentials (KEEP_TEST_LOG=1 keeps the file).
 */
export default async function globalTeardown(): Promise<void> {
  try {
    await dropRunData();
  } finally {
    checkRunLog(process.env.LOG_FILE);
  }
}

async function dropRunData(): Promise<void> {
  if (process.env.KEEP_TEST_DB || !process.env.CCP_TEST_RUN) return;
  const url = new URL(process.env.DATABASE_URL!);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  // The run's database and any scratch databases its tests made (named after it).
  const { rows } = await client.query('select datname from pg_database where datname like $1', [`${name}%`]);
  for (const row of rows) await client.query(`drop database if exists "${row.datname}" with (force)`);
  await client.end();
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const base = process.env.REDIS_PREFIX!;
  // Each jest worker ran under its own prefix (test/setup/worker-isolation.ts).
  for (const prefix of [base, ...Array.from({ length: 16 }, (_, i) => `${base}_w${i + 1}`)]) await deletePrefix(redis, prefix);
  await redis.quit();
}
