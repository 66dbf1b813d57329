/** One subgraph as its own HTTP service (split mode): `node dist/bin/subgraph.js <org|clinical|revenue>`. */
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { GraphQLError } from 'graphql';
import { config, subgraphUrl } from '../shared/config';
import { ensureDatabase, StartupError } from '../shared/db';
import { toPublicError } from '../shared/errors';
import { verifyViewer, VIEWER_HEADER } from '../shared/internal-auth';
import { logger } from '../shared/logger';
import { readsFor } from '../shared/read-your-writes';
import { closeAppRedis, connectRedis, holdAppRedis } from '../shared/redis';
import { startSubgraph } from '../shared/subgraph';
import { SUBGRAPHS } from '../subgraphs';
import { openPlatformStore, plumbingOf, workRegistry } from '../workers';
import { run } from './run';

const name = process.argv[2];

void run(`subgraph ${name}`, async () => {
  const def = SUBGRAPHS.find((s) => s.name === name);
  if (!def) throw new StartupError(`unknown subgraph "${name}"; one of ${SUBGRAPHS.map((s) => s.name).join(', ')}`);
  await connectRedis(holdAppRedis());
  await ensureDatabase();
  const store = await openPlatformStore();
  const runtime = await startSubgraph(def, { plumbing: plumbingOf(store, workRegistry(SUBGRAPHS)) });
  const log = (err: unknown, msg: string) => logger.error({ err, subgraph: name }, msg);
  const server = new ApolloServer({
    schema: runtime.schema,
    includeStacktraceInErrorResponses: false,
    // `run` closes everything in order on SIGTERM/SIGINT; Apollo's own handler would race it.
    stopOnTerminationSignals: false,
    plugins: [ApolloServerPluginInlineTraceDisabled()],
    formatError: (formatted, error) =>
      error instanceof GraphQLError ? toPublicError(error, log) : toPublicError(new GraphQLError(formatted.message), log),
  });
  await server.start();
  const app = express();
  app.get('/health', (_req, res) => res.json({ success: true, data: { status: 'ok', subgraph: name } }));
  app.use(
    '/graphql',
    express.json({ limit: config().BODY_LIMIT_BYTES }),
    expressMiddleware(server, {
      context: async ({ req }) => {
        let caller;
        try {
          caller = await verifyViewer(req.headers[VIEWER_HEADER] as string | undefined);
        } catch {
          throw new GraphQLError('Invalid internal credentials', { extensions: { code: 'UNAUTHORIZED', http: { status: 401 } } });
        }
        return runtime.createContext(caller.viewer, {
          requestId: caller.requestId ?? 'internal',
          ip: caller.ip,
          userAgent: caller.userAgent,
          reads: await readsFor(caller.viewer, req.body),
        });
      },
    }),
  );
  const url = new URL(subgraphUrl(name));
  const http = app.listen(Number(url.port), url.hostname);
  await new Promise((resolve, reject) => http.once('listening', resolve).once('error', reject));
  logger.info({ subgraph: name, url: url.toString() }, 'subgraph listening');
  return {
    async close() {
      await new Promise((resolve) => http.close(resolve));
      await server.stop();
      await runtime.close();
      await store.close();
      await closeAppRedis();
    },
  };
});
