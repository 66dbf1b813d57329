// Test files running at the same time in different jest workers each start a platform with its own queue workers.
// Sharing one Redis prefix, one platform's workers would take the other's jobs and run them under the other's
// configuration (a transcription server, a storage directory set by one suite only). Each jest worker gets its own
// prefix; the database stays shared, and global teardown deletes every worker's keys.
const base = (process.env.CCP_TEST_REDIS_BASE ??= process.env.REDIS_PREFIX);
if (base && process.env.CCP_TEST_RUN && process.env.JEST_WORKER_ID) process.env.REDIS_PREFIX = `${base}_w${process.env.JEST_WORKER_ID}`;
