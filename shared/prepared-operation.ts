import type { DocumentNode, GraphQLFormattedError, OperationDefinitionNode } from 'graphql';
import type { RequestContext } from './context';

/** An operation checked once at start (validated against the API schema, depth and cost within the limits). */
export interface PreparedOperation {
  name: string;
  source: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** sha256 of `source`, the gateway's query plan cache key. */
  queryHash: string;
}

export interface ExecutionResult {
  data?: Record<string, unknown> | null;
  errors?: readonly GraphQLFormattedError[];
}

/** What runs prepared operations: the gateway's executor, which the REST adapter is handed. */
export interface OperationExecutor {
  execute(op: PreparedOperation, variables: Record<string, unknown>, context: RequestContext): Promise<ExecutionResult>;
}
