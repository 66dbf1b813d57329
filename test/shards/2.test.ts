import { runShard } from '../support/shard';

runShard(__filename);
