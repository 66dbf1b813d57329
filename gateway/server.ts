import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError, type ASTVisitor, type GraphQLFormattedError, type GraphQLSchema, type ValidationContext } from 'graphql';
import type { ExecutionResult, OperationExecutor, PreparedOperation } from '../shared/prepared-operation';
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import { config, subgraphUrl } from '../shared/config';
import { isErrorCode, type ErrorCode } from '../shared/errors';
import { logger } from '../shared/logger';
import { rootRequirements, type RootRequirements } from '../shared/requires-permission';
import type { SubgraphRuntime } from '../shared/subgraph';
import { internalSupergraph, printPublicSchema, readSupergraph } from './composition';
import type { GatewayContext } from './context';
import { InProcessDataSource, SignedRemoteDataSource } from './data-sources';
import { inputRulesPlugin } from './input-rules';
import { loadTrustedDocuments, manifestCache, type TrustedDocuments } from './trusted-documents';
import { aliasRule } from '../shared/graphql-limits';
import { costLimitPlugin, depthRule, MAX_TOKENS } from './limits';

export type { ExecutionResult, PreparedOperation };

export interface Gateway extends OperationExecutor {
  server: ApolloServer<GatewayContext>;
  /**
   * The schema the platform's own adapters run on (REST routes, uploads, the FHIR API): the public one plus the
   * fields marked `@inaccessible`, which `/graphql` does not serve.
   */
  schema: GraphQLSchema;
  /** The public (API) schema of the supergraph: what clients can query on `/graphql`. */
  publicSchema: GraphQLSchema;
  /** `publicSchema` printed as SDL, as schema/public.graphql holds it. */
  publicSdl: string;
  /** The manifest of trusted-documents mode (GRAPHQL_TRUSTED_DOCUMENTS), when on. */
  trusted?: TrustedDocuments;
  /** What root fields require, as the supergraph declares it (`@requiresPermission`), for the adapters. */
  requirements: RootRequirements;
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
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

/** Request errors whose HTTP status has a code of its own (a mutation over GET, a GET with a body type). */
const REQUEST_ERROR_BY_STATUS: Record<number, ErrorCode> = { 405: 'METHOD_NOT_ALLOWED', 415: 'UNSUPPORTED_MEDIA_TYPE' };

/**
 * Extensions a client may see besides `code`: field issues, rate-limit state, why a CONFLICT (`reason`, with `from`
 * and `action` for an illegal transition, `currentVersion` for a stale one) and the numbers of a refused limit.
 */
const PUBLIC_EXTENSIONS = [
  'details',
  'retryAfter',
  'rateLimit',
  'reason',
  'from',
  'action',
  'currentVersion',
  'measure',
  'limit',
  'actual',
] as const;

/** A validation rule's own code (QUERY_TOO_DEEP, QUERY_TOO_COMPLEX), which Apollo overwrites with its own. */
function ruleCode(error: unknown): string | undefined {
  const original = (error as { originalError?: { extensions?: Record<string, unknown> } } | undefined)?.originalError;
  const code = original?.extensions?.code;
  return typeof code === 'string' && isErrorCode(code) ? code : undefined;
}

/** Only codes from the closed list, and only safe extensions, leave the gateway. */
export function formatGatewayError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const raw = formatted.extensions?.code;
  const code = raw === 'GRAPHQL_VALIDATION_FAILED' ? (ruleCode(error) ?? raw) : raw;
  const base = { message: formatted.message, locations: formatted.locations, path: formatted.path };
  if (isErrorCode(code)) {
    const ext = formatted.extensions as Record<string, unknown>;
    const kept = Object.fromEntries(PUBLIC_EXTENSIONS.filter((k) => ext[k] !== undefined).map((k) => [k, ext[k]]));
    return { ...base, extensions: { code, ...kept } };
  }
  const status = (error as { extensions?: { http?: { status?: number } } } | undefined)?.extensions?.http?.status;
  // Apollo's own refusals of a request that carry no code (a persisted query whose hash does not match it, an
  // unsupported persisted-query version) come with a 400.
  const uncodedRequestError = (code === undefined || code === 'INTERNAL_SERVER_ERROR') && status === 400;
  if ((typeof code === 'string' && REQUEST_ERROR_CODES.has(code)) || uncodedRequestError) {
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
 * An operation of a kind the graph has no root type for (today `subscription`: subscriptions are not served yet) is
 * the request's fault, refused in validation with a 400 VALIDATION_ERROR, as graphql-js 17's KnownOperationTypesRule
 * does. graphql-js 16 lets it through, and the gateway's query planner then throws: a 500 and a stack trace in the log.
 * When the graph gains a Subscription type, this lets its operations through by itself.
 */
export function knownOperationTypes(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      if (context.getSchema().getRootType(node.operation)) return;
      const plural = `${node.operation}s`;
      context.reportError(
        new GraphQLError(`${plural[0].toUpperCase()}${plural.slice(1)} are not supported: the graph has no ${node.operation} type`, {
          nodes: node,
        }),
      );
    },
  };
}

/**
 * The federated gateway over the checked-in supergraph. With `runtimes`, subgraphs run in this process;
 * without, each is called at its configured URL.
 */
export async function startGateway(runtimes?: Map<string, SubgraphRuntime>): Promise<Gateway> {
  const cfg = config();
  const trusted = cfg.GRAPHQL_TRUSTED_DOCUMENTS ? loadTrustedDocuments(cfg.GRAPHQL_TRUSTED_DOCUMENTS) : undefined;
  let apiSchema: GraphQLSchema | undefined;
  const supergraphSdl = readSupergraph();
  const buildService = ({ name }: { name: string }) => {
    const runtime = runtimes?.get(name);
    return runtime ? new InProcessDataSource(runtime) : new SignedRemoteDataSource(name, subgraphUrl(name));
  };
  const gateway = new ApolloGateway({ supergraphSdl, buildService, logger });
  gateway.onSchemaLoadOrUpdate(({ apiSchema: schema }) => {
    apiSchema = schema;
  });
  // The adapters' executor: the same subgraphs and plans, with the internal fields in its API schema.
  const internal = new ApolloGateway({ supergraphSdl: internalSupergraph(supergraphSdl), buildService, logger });
  const { schema: internalSchema, executor } = await internal.load();
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
    // Automatic persisted queries (over GET and POST) in an in-memory LRU store per process: a miss answers
    // PERSISTED_QUERY_NOT_FOUND and the client sends the query once with its hash. In trusted-documents mode the
    // store is the manifest, read-only (gateway/trusted-documents.ts).
    persistedQueries: trusted ? { cache: manifestCache(trusted), ttl: null } : {},
    validationRules: [knownOperationTypes, depthRule(cfg.GRAPHQL_MAX_DEPTH), aliasRule()],
    // A browser's GET gets the platform's own explorer (gateway/explorer.ts), never Apollo's page from a CDN.
    plugins: [requireOperation, inputRulesPlugin(), costLimitPlugin(cfg.GRAPHQL_MAX_COST), ApolloServerPluginLandingPageDisabled()],
    formatError: formatGatewayError,
    logger,
  });
  await server.start();
  if (!apiSchema) throw new Error('gateway started without a schema');
  const publicSchema: GraphQLSchema = apiSchema;
  const schema = internalSchema;
  const cache = new InMemoryLRUCache();
  const execute: Gateway['execute'] = async (op, variables, context) => {
    try {
      const result = await executor({
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
  const stop = async () => {
    await server.stop();
    await internal.stop();
  };
  return {
    server,
    schema,
    publicSchema,
    publicSdl: printPublicSchema(publicSchema),
    trusted,
    requirements: rootRequirements(supergraphSdl),
    execute,
    stop,
  };
}
