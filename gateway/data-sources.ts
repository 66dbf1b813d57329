import { RemoteGraphQLDataSource, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import {
  execute,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLFormattedError,
  type SelectionSetNode,
} from 'graphql';
import { errors, isUnreachable, toPublicError, wasRefused } from '../shared/errors';
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

/**
 * Calls a subgraph over HTTP (split mode), passing the verified viewer in a signed header. A subgraph that does not
 * answer (its process down or restarting) costs the fields it would have resolved, not the request: each gets a
 * SERVICE_UNAVAILABLE error at its own path, and the rest of the query answers (docs/graphql.md, "Nullability").
 */
export class SignedRemoteDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(
    /** The subgraph's name, for its errors and the log. */
    readonly subgraph: string,
    url: string,
  ) {
    super({ url });
  }

  override async process(options: GraphQLDataSourceProcessOptions<GatewayContext>) {
    try {
      return await super.process(options);
    } catch (err) {
      if (!isUnreachable(err)) throw err;
      logger.warn({ subgraph: this.subgraph, err: (err as Error).message }, 'subgraph unreachable');
      // The gateway hands over the fetch's parsed document only when told to; its text is always there.
      const given = 'document' in options ? options.document : undefined;
      const document = given ?? (options.request.query ? parse(options.request.query) : undefined);
      // A mutation whose connection dropped (rather than was refused) may have been carried out.
      const mutation = document?.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'mutation');
      const error = errors.subgraphUnavailable(this.subgraph, !!mutation && !wasRefused(err));
      const paths = fieldPaths(document, options.request.variables);
      const errorAt = (path?: (string | number)[]) => ({ message: error.message, path, extensions: error.extensions });
      return { errors: paths.length ? paths.map(errorAt) : [errorAt()] };
    }
  }

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

/**
 * The paths, in the subgraph's answer, of the fields a fetch asked for: the root fields of a root fetch, and each
 * asked field of each entity of an `_entities` fetch (which the gateway maps onto the entity's place in the
 * client's answer). None when the document is not at hand.
 */
export function fieldPaths(document: DocumentNode | undefined, variables: Record<string, unknown> | undefined): (string | number)[][] {
  const operation = document?.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (!document || !operation) return [];
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])),
  );
  const keys = (set: SelectionSetNode, typename?: string): string[] =>
    set.selections.flatMap((sel) => {
      if (sel.kind === Kind.FIELD) return sel.name.value === '__typename' ? [] : [sel.alias?.value ?? sel.name.value];
      const condition = sel.kind === Kind.INLINE_FRAGMENT ? sel.typeCondition?.name.value : undefined;
      if (condition && typename && condition !== typename) return [];
      const inner = sel.kind === Kind.INLINE_FRAGMENT ? sel.selectionSet : fragments.get(sel.name.value);
      return inner ? keys(inner, typename) : [];
    });
  const paths: (string | number)[][] = [];
  for (const sel of operation.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD || sel.name.value === '__typename') continue;
    const key = sel.alias?.value ?? sel.name.value;
    const entities = sel.name.value === '_entities' ? sel.selectionSet : undefined;
    if (!entities) {
      paths.push([key]);
      continue;
    }
    const representations = (variables?.representations ?? []) as { __typename?: string }[];
    representations.forEach((rep, i) => {
      for (const field of new Set(keys(entities, rep.__typename))) paths.push([key, i, field]);
    });
  }
  return paths;
}
