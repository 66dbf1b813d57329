/** The queue workers as their own process (split mode). */
import { ensureDatabase, openOrm, type MikroORM } from '../shared/db';
import { remotePeers } from '../shared/peers';
import { closeAppRedis, connectRedis, holdAppRedis } from '../shared/redis';
import { SUBGRAPHS } from '../subgraphs';
import { openPlatformStore, startWorkers, workRegistry } from '../workers';
import { run } from './run';

void run('workers', async () => {
  await connectRedis(holdAppRedis());
  await ensureDatabase();
  const store = await openPlatformStore();
  const sources: { name: string; orm: MikroORM }[] = [];
  for (const def of SUBGRAPHS) sources.push({ name: def.name, orm: await openOrm(def) });
  const workers = await startWorkers({ sources, store, registry: workRegistry(SUBGRAPHS), peers: remotePeers });
  return {
    async close() {
      await workers.close();
      for (const s of sources) await s.orm.close();
      await store.close();
      await closeAppRedis();
    },
  };
});
