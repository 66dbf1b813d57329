import { RemoteGraphQLDataSource, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { execute, parse, validate, type DocumentNode, type GraphQLError, type GraphQLFormattedError } from 'graphql';
import { toPublicError } from '../shared/errors';
import { signViewer, VIEWER_HEADER } from '../shared/internal-auth';
import { logger } from '../shared/logger';
import type { SubgraphRuntime } from '../shared/subgraph';
import type { GatewayContext } from './context';

const DOCUMENT_CACHE_MAX = 2000;
const logUnexpected = (subgraph: string) => (err: unknown, msg: string) => logger.error({ err, subgraph }, msg);

/**
 * Executes a subgraph in the gateway's own process. The query plan sends the same few fetch documents again and
 * again, so each is parsed and validated once.
 */
export class InProcessDataSource implements GraphQLDataSource<GatewayContext> {
  private readonly documents = new Map<string, DocumentNode>();
  private readonly log: (err: unknown, msg: string) => void;

  constructor(private readonly runtime: SubgraphRuntime) {
    this.log = logUnexpected(runtime.name);
  }

  async process(options: GraphQLDataSourceProcessOptions<GatewayContext>) {
    const { request } = options;
    const context = options.context as GatewayContext;
    const source = request.query ?? '';
    let document = this.documents.get(source);
    if (!document) {
      document = parse(source);
      const invalid = validate(this.runtime.schema, document);
      if (invalid.length) return { errors: invalid.map((e) => this.publicError(e)) };
      if (this.documents.size >= DOCUMENT_CACHE_MAX) this.documents.clear();
      this.documents.set(source, document);
    }
    const result = await execute({
      schema: this.runtime.schema,
      document,
      variableValues: request.variables,
      operationName: request.operationName,
      contextValue: this.runtime.createContext(context?.viewer, {
        requestId: context?.requestId ?? 'internal',
        ip: context?.ip,
        userAgent: context?.userAgent,
      }),
    });
    return {
      data: result.data as Record<string, unknown> | null | undefined,
      errors: result.errors?.map((e) => this.publicError(e)),
    };
  }

  private publicError(error: GraphQLError): GraphQLFormattedError {
    return toPublicError(error, this.log);
  }
}

/** Calls a subgraph over HTTP (split mode), passing the verified viewer in a signed header. */
export class SignedRemoteDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  override async willSendRequest(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<void> {
    const context = options.context as Partial<GatewayContext>;
    const headers = options.request.http?.headers;
    if (!headers) return;
    headers.set(
      VIEWER_HEADER,
      await signViewer({ viewer: context.viewer, requestId: context.requestId, ip: context.ip, userAgent: context.userAgent }),
    );
  }
}
