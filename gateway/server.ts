import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { ExecutionResult, OperationExecutor, PreparedOperation } from '../shared/prepared-operation';
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import { config, subgraphUrl } from '../shared/config';
import { isErrorCode, type ErrorCode } from '../shared/errors';
import { logger } from '../shared/logger';
import type { SubgraphRuntime } from '../shared/subgraph';
import { readSupergraph } from './composition';
import type { GatewayContext } from './context';
import { InProcessDataSource, SignedRemoteDataSource } from './data-sources';
import { inputRulesPlugin } from './input-rules';
import { aliasRule } from '../shared/graphql-limits';
import { costLimitPlugin, depthRule, MAX_TOKENS } from './limits';

export type { ExecutionResult, PreparedOperation };

export interface Gateway extends OperationExecutor {
  server: ApolloServer<GatewayContext>;
  /** The public (API) schema of the supergraph: what clients can query. */
  schema: GraphQLSchema;
  /**
   * Runs a prepared operation on the gateway's executor, the same entry point Apollo Server uses, without the
   * per-request parsing, validation and pricing that a prepared operation has already passed. Errors leave
   * formatted exactly as `/graphql` formats them.
   */
  execute(op: PreparedOperation, variables: Record<string, unknown>, context: GatewayContext): Promise<ExecutionResult>;
  stop(): Promise<void>;
}

/** GraphQL's own request errors, all of which mean the request itself is wrong. */
const REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

/** Request errors whose HTTP status has a code of its own (a mutation over GET, a GET with a body type). */
const REQUEST_ERROR_BY_STATUS: Record<number, ErrorCode> = { 405: 'METHOD_NOT_ALLOWED', 415: 'UNSUPPORTED_MEDIA_TYPE' };

/** Extensions a client may see besides `code`: field issues, rate-limit state, and why a CONFLICT (DESIGN.md). */
const PUBLIC_EXTENSIONS = ['details', 'retryAfter', 'rateLimit', 'reason'] as const;

/** Only codes from the closed list, and only safe extensions, leave the gateway. */
export function formatGatewayError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const code = formatted.extensions?.code;
  const base = { message: formatted.message, locations: formatted.locations, path: formatted.path };
  if (isErrorCode(code)) {
    const ext = formatted.extensions as Record<string, unknown>;
    const kept = Object.fromEntries(PUBLIC_EXTENSIONS.filter((k) => ext[k] !== undefined).map((k) => [k, ext[k]]));
    return { ...base, extensions: { code, ...kept } };
  }
  if (typeof code === 'string' && REQUEST_ERROR_CODES.has(code)) {
    const status = (error as { extensions?: { http?: { status?: number } } } | undefined)?.extensions?.http?.status;
    return { ...base, extensions: { code: (status && REQUEST_ERROR_BY_STATUS[status]) || 'VALIDATION_ERROR' } };
  }
  logger.error({ err: error, code }, 'unexpected gateway error');
  return { message: 'Internal server error', path: formatted.path, extensions: { code: 'INTERNAL_ERROR' } };
}

/**
 * A document with no operation to run (an `operationName` that matches none, several operations and no name) is
 * the request's fault; left to the gateway's executor it would throw, and answer 500.
 */
const requireOperation: ApolloServerPlugin<GatewayContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, request }) {
        if (operation) return;
        const message = request.operationName
          ? `Unknown operation named "${request.operationName}".`
          : 'Must provide operation name if query contains multiple operations.';
        throw new GraphQLError(message, { extensions: { code: 'VALIDATION_ERROR', http: { status: 400 } } });
      },
    };
  },
};

/**
 * The federated gateway over the checked-in supergraph. With `runtimes`, subgraphs run in this process;
 * without, each is called at its configured URL.
 */
export async function startGateway(runtimes?: Map<string, SubgraphRuntime>): Promise<Gateway> {
  const cfg = config();
  let apiSchema: GraphQLSchema | undefined;
  const gateway = new ApolloGateway({
    supergraphSdl: readSupergraph(),
    buildService: ({ name }) => {
      const runtime = runtimes?.get(name);
      return runtime ? new InProcessDataSource(runtime) : new SignedRemoteDataSource(name, subgraphUrl(name));
    },
    logger,
  });
  gateway.onSchemaLoadOrUpdate(({ apiSchema: schema }) => {
    apiSchema = schema;
  });
  const server = new ApolloServer<GatewayContext>({
    gateway,
    // The platform closes everything in order on SIGTERM/SIGINT; Apollo's own handler would race it.
    stopOnTerminationSignals: false,
    introspection: cfg.GRAPHQL_INTROSPECTION,
    includeStacktraceInErrorResponses: false,
    // Credentials travel only in headers (no cookie reaches /graphql), so a cross-site request carries none; and
    // GraphQL over HTTP lets any client send queries as GET.
    csrfPrevention: false,
    parseOptions: { maxTokens: MAX_TOKENS },
    validationRules: [depthRule(cfg.GRAPHQL_MAX_DEPTH), aliasRule()],
    // A browser's GET gets the platform's own explorer (gateway/explorer.ts), never Apollo's page from a CDN.
    plugins: [requireOperation, inputRulesPlugin(), costLimitPlugin(cfg.GRAPHQL_MAX_COST), ApolloServerPluginLandingPageDisabled()],
    formatError: formatGatewayError,
    logger,
  });
  await server.start();
  if (!apiSchema) throw new Error('gateway started without a schema');
  const schema: GraphQLSchema = apiSchema;
  const cache = new InMemoryLRUCache();
  const execute: Gateway['execute'] = async (op, variables, context) => {
    try {
      const result = await gateway.executor({
        request: { query: op.source, variables, operationName: op.name },
        document: op.document,
        operation: op.operation,
        operationName: op.name,
        source: op.source,
        queryHash: op.queryHash,
        schema,
        schemaHash: '' as never,
        context,
        cache,
        logger,
        metrics: {},
        overallCachePolicy: {},
      });
      return {
        data: result.data,
        errors: result.errors?.map((e) => formatGatewayError(e as GraphQLFormattedError, e)),
      };
    } catch (err) {
      logger.error({ err, operation: op.name, requestId: context.requestId }, 'gateway execution failed');
      return { data: null, errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_ERROR' } }] };
    }
  };
  return { server, schema, execute, stop: () => server.stop() };
}
