import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { resetConfig } from '../../shared/config';
import { ensureDatabase, migrate, openOrm } from '../../shared/db';
import { logger } from '../../shared/logger';
import { closeAppRedis, connectRedis, holdAppRedis } from '../../shared/redis';
import { SUBGRAPHS } from '../../subgraphs';

/**
 * Every test run gets its own PostgreSQL database and its own Redis key prefix, so runs never see each other's
 * data and a failed run leaves nothing behind that the next one trips over. Workers inherit these variables.
 */
export default async function globalSetup(globalConfig: { maxWorkers: number }): Promise<void> {
  // The project pins its runtime (the `node` devDependency, first on every npm script's PATH): say which one runs.
  console.log(`\ntests run on Node.js ${process.version}`);
  const run = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const db = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  db.pathname = `/ccp_test_${run}`;
  Object.assign(process.env, {
    NODE_ENV: 'test',
    DATABASE_URL: db.toString(),
    REDIS_PREFIX: `ccp_test_${run}`,
    TOKEN_KEY_FILE: join(mkdtempSync(join(tmpdir(), 'ccp-test-')), 'keys.json'),
    // Every process of the run logs at info into one file, which the teardown searches for patient data and
    // credentials the tests planted (test/setup/log-check.ts); TEST_LOG_LEVEL shows the logs instead.
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'info',
    ...(process.env.TEST_LOG_LEVEL ? {} : { LOG_FILE: join(tmpdir(), `ccp-test-${run}.log`) }),
    BOOTSTRAP_ADMIN_EMAIL: 'admin@platform.test',
    BOOTSTRAP_ADMIN_PASSWORD: 'Admin-pass-2026',
    // Every test runs from the same address; the rate-limit tests set their own limits and addresses.
    // Every platform of the run holds a pool per schema: small pools keep a run well inside PostgreSQL's 100 connections.
    DB_POOL_MAX: '4',
    RATE_LIMIT_POINTS: '1000000',
    RATE_LIMIT_AUTH_POINTS: '1000000',
    // Consumers retry quickly in tests; a failing event reaches the dead letter queue within a second.
    EVENT_MAX_ATTEMPTS: '3',
    EVENT_BACKOFF_MS: '50',
    DLQ_ALERT_THRESHOLD: '5',
    METRICS_TOKEN: 'metrics-scraper-token-for-tests',
    BILLING_WEBHOOK_SECRET: 'whsec_billing_test_secret',
    VIDEO_API_KEY: 'video-test-key',
    VIDEO_API_SECRET: 'video-test-secret-with-enough-length',
    MESSAGING_APP_SECRET: 'messaging-app-secret',
    MESSAGING_VERIFY_TOKEN: 'messaging-verify-token',
    MAILER_WEBHOOK_SECRET: `whsec_${Buffer.from('mailer-webhook-secret-bytes').toString('base64')}`,
    INBOUND_FORMS_SECRET: `whsec_${Buffer.from('forms-webhook-secret-bytes').toString('base64')}`,
    MOBILE_MONEY_A_SECRET: 'mobile-money-a-secret',
    MOBILE_MONEY_B_SECRET: 'mobile-money-b-secret',
    CCP_TEST_RUN: run,
  });
  // The imports above already read the configuration (the logger does); read it again with the run's settings.
  resetConfig();
  logger.level = 'silent';
  // Create the database and apply migrations once, before test files start their apps in parallel.
  await connectRedis(holdAppRedis());
  await closeAppRedis();
  await ensureDatabase();
  for (const def of SUBGRAPHS) {
    const orm = await openOrm(def);
    await migrate(orm, def.name);
    await orm.close();
  }
  // Test files running at the same time in different jest workers each boot a platform with its own outbox relay and
  // queue workers. On one database, one platform would relay the other's events and run its jobs under its own
  // configuration (a suite's transcription server, storage directory or mailbox). Each worker gets a copy of the
  // migrated database (test/setup/worker-isolation.ts); teardown drops them with the run's database.
  const admin = new URL(db);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    for (let worker = 1; worker <= Math.max(1, globalConfig.maxWorkers); worker++) {
      await client.query(`create database "ccp_test_${run}_w${worker}" template "ccp_test_${run}"`);
    }
  } finally {
    await client.end();
  }
}
