// Test files running at the same time in different jest workers each boot a platform with its own outbox relay and
// queue workers. Sharing one database and one Redis prefix, one platform would relay the other's events and run its
// jobs under its own configuration (a suite's transcription server, storage directory or mailbox). Each jest worker
// gets its own copy of the migrated database (made in global setup) and its own Redis prefix; global teardown
// deletes them with the run's own.
const worker = process.env.JEST_WORKER_ID;
if (process.env.CCP_TEST_RUN && worker) {
  const redisBase = (process.env.CCP_TEST_REDIS_BASE ??= process.env.REDIS_PREFIX);
  const dbBase = (process.env.CCP_TEST_DATABASE_BASE ??= process.env.DATABASE_URL);
  process.env.REDIS_PREFIX = `${redisBase}_w${worker}`;
  const db = new URL(dbBase!);
  db.pathname = `${db.pathname}_w${worker}`;
  process.env.DATABASE_URL = db.toString();
}
