import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import { setSandboxMobileMoneyBaseUrl } from '../shared/adapters/mobile-money';
import { setSandboxVideoWebhookUrl } from '../shared/adapters/video';
import { config, subgraphUrl } from '../shared/config';
import { setPlatformUrl } from '../shared/internal-auth';
import { ensureDatabase, openOrm, type MikroORM } from '../shared/db';
import { logger } from '../shared/logger';
import { localPeers, remotePeers, type Peers } from '../shared/peers';
import { closeAppRedis, connectRedis, holdAppRedis } from '../shared/redis';
import { startSubgraph, type SubgraphRuntime } from '../shared/subgraph';
import { createHttpApp } from '../gateway/app';
import { metricsEndpoint, openOpsQueues, queueDashboard } from '../gateway/ops';
import { startGateway, type Gateway } from '../gateway/server';
import { buildOpenApi } from '../rest-adapter/openapi';
import { loadOperations } from '../rest-adapter/operations';
import { compileRoutes, type CompiledRoute } from '../rest-adapter/router';
import { ROUTE_TABLES } from '../rest-adapter/routes';
import { WEBHOOK_ROUTES } from '../rest-adapter/routes/webhooks';
import { webhookRouter } from '../rest-adapter/webhooks/router';
import { IDENTITY_SUBGRAPH, interopStandardsRouter, SUBGRAPHS, viewerLoader } from '../subgraphs';
import {
  openPlatformStore,
  platformQueueNames,
  plumbingOf,
  startWorkers,
  workRegistry,
  type PlatformStore,
  type Workers,
} from '../workers';

export interface PlatformOptions {
  port?: number;
  host?: string;
  /** `local` runs the subgraphs in this process; `remote` calls them over HTTP (split mode). */
  subgraphs?: 'local' | 'remote';
  workers?: boolean;
}

export interface Platform {
  url: string;
  port: number;
  runtimes: Map<string, SubgraphRuntime>;
  gateway: Gateway;
  routes: CompiledRoute[];
  store: PlatformStore;
  workers?: Workers;
  close(): Promise<void>;
}

export const API_INFO = {
  title: 'Clinical Care Platform API',
  version: '0.1.0',
  description: [
    'REST paths of the platform, each served by one operation of the federated GraphQL graph at `/graphql`.',
    '',
    '- Envelopes: `{success: true, data}`; lists add `meta: {page, limit, total}`; errors are',
    '  `{success: false, error: {code, message, details?}}`.',
    '- Field names are snake_case. Unknown body fields are ignored. Amounts are decimal strings ("125.50").',
    '- Pagination: `page` from 1, `limit` 1 to 100 (default 20); other values are a 400.',
    '- Authentication: `Authorization: Bearer <PASETO v4.public token>` from `POST /api/auth/login`.',
  ].join('\n'),
};

/**
 * The OpenAPI document of the REST API as this deployment serves it (`/api/openapi.json`): generated from the route
 * tables, the operations and the graph's API schema, with this deployment's `PUBLIC_URL` as its server.
 */
export function openApiDocument(routes: CompiledRoute[], publicUrl = config().PUBLIC_URL) {
  return buildOpenApi(routes, {
    info: API_INFO,
    servers: [{ url: publicUrl.replace(/\/+$/, ''), description: 'This deployment (PUBLIC_URL)' }],
    webhooks: WEBHOOK_ROUTES,
  });
}

/**
 * The REST routes compiled against the graph's API schema, with what its root fields require (permissions),
 * as the platform compiles them at start.
 */
export function compileRestRoutes(
  gateway: Pick<Gateway, 'schema' | 'requirements'>,
  operations = loadOperations(gateway.schema),
): CompiledRoute[] {
  const cfg = config();
  const limits = { maxCost: cfg.GRAPHQL_MAX_COST, maxDepth: cfg.GRAPHQL_MAX_DEPTH };
  return compileRoutes(ROUTE_TABLES, gateway.schema, operations, limits, gateway.requirements);
}

/**
 * The composition root: starts the platform, by default everything in one process (subgraphs, gateway, REST
 * adapter, workers). It is the one place that puts the parts together: the gateway, the adapter and the workers
 * are handed what they run (the subgraphs' registry, the viewer loader, the platform store) and import none of it.
 */
export async function startPlatform(options: PlatformOptions = {}): Promise<Platform> {
  const cfg = config();
  const mode = options.subgraphs ?? cfg.SUBGRAPH_MODE;
  const redis = holdAppRedis();
  await connectRedis(redis);
  const runtimes = new Map<string, SubgraphRuntime>();
  const cleanups: [string, () => Promise<unknown>][] = [['redis', closeAppRedis]];
  // Each step gets a deadline: shutting down while Redis or PostgreSQL is away must not hang.
  const close = async () => {
    for (const [step, fn] of cleanups.reverse()) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          logger.warn({ step }, 'a shutdown step took over 5 s; moving on');
          resolve();
        }, 5000);
      });
      await Promise.race([fn().catch((err) => logger.warn({ err, step }, 'error while closing')), deadline]);
      clearTimeout(timer);
    }
  };
  try {
    await ensureDatabase();
    const store = await openPlatformStore();
    cleanups.push(['platform store', () => store.close()]);
    const registry = workRegistry(SUBGRAPHS);
    const plumbing = plumbingOf(store, registry);
    let identityOrm: MikroORM;
    let peers: Peers = remotePeers;
    if (mode === 'local') {
      for (const def of SUBGRAPHS) {
        const runtime = await startSubgraph(def, { plumbing });
        runtimes.set(def.name, runtime);
        cleanups.push([`subgraph ${def.name}`, () => runtime.close()]);
      }
      identityOrm = runtimes.get(IDENTITY_SUBGRAPH.name)!.orm;
      peers = localPeers(runtimes);
      for (const runtime of runtimes.values()) runtime.peers = peers;
    } else {
      identityOrm = await openOrm(IDENTITY_SUBGRAPH);
      cleanups.push(['database', () => identityOrm.close()]);
    }
    const gateway = await startGateway(mode === 'local' ? runtimes : undefined);
    cleanups.push(['gateway', () => gateway.stop()]);

    const operations = loadOperations(gateway.schema);
    const routes = compileRestRoutes(gateway, operations);
    const checks: Record<string, () => Promise<unknown>> = {
      postgres: () => identityOrm.em.getConnection().execute('select 1'),
      redis: () => redis.ping(),
    };
    if (mode === 'remote') {
      for (const def of SUBGRAPHS) {
        checks[`subgraph_${def.name}`] = async () => {
          const res = await fetch(new URL('/health', subgraphUrl(def.name)));
          if (!res.ok) throw new Error(`status ${res.status}`);
        };
      }
    }
    const identity = viewerLoader(() => identityOrm.em.fork());
    const opsQueues = openOpsQueues(platformQueueNames(registry));
    cleanups.push(['queue dashboard', () => opsQueues.close()]);
    const opsRouter = Router();
    opsRouter.use(queueDashboard(opsQueues, identity, { gateway, operations }));
    opsRouter.get(
      '/metrics',
      metricsEndpoint(opsQueues, identity, async () => (await store.deadLetters.depth()).depth),
    );
    const app = createHttpApp({
      gateway,
      identity,
      routes,
      webhooks: webhookRouter(WEBHOOK_ROUTES, store.webhookInbox),
      ops: opsRouter,
      standards: await interopStandardsRouter({ gateway, identity }),
      openapi: openApiDocument(routes),
      checks,
    });

    let workers: Workers | undefined;
    if (options.workers ?? (cfg.RUN_WORKERS && mode === 'local')) {
      workers = await startWorkers({ sources: [...runtimes.values()].map((r) => ({ name: r.name, orm: r.orm })), store, registry, peers });
      cleanups.push(['workers', () => workers!.close()]);
    }

    const server: Server = await new Promise((resolve, reject) => {
      const s = app.listen(options.port ?? cfg.PORT, options.host ?? cfg.HOST, () => resolve(s));
      s.once('error', reject);
    });
    server.keepAliveTimeout = 65_000;
    cleanups.push([
      'http server',
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ]);
    const port = (server.address() as AddressInfo).port;
    // The sandbox video provider calls this process's own webhook endpoint, as the real provider would.
    if (mode === 'local') setSandboxVideoWebhookUrl(`http://127.0.0.1:${port}/api/webhooks/video`);
    // So does the sandbox mobile money provider, with its payments' callbacks.
    if (mode === 'local') setSandboxMobileMoneyBaseUrl(`http://127.0.0.1:${port}`);
    // Events the platform relays to its own inbound webhook paths (approved leave) reach this process too.
    if (mode === 'local') setPlatformUrl(`http://127.0.0.1:${port}`);
    logger.info({ port, mode, routes: routes.length, node: process.version }, 'platform listening');
    return { url: `http://127.0.0.1:${port}`, port, runtimes, gateway, routes, store, workers, close };
  } catch (err) {
    await close();
    throw err;
  }
}
