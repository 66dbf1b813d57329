import type { ApolloServerPlugin } from '@apollo/server';
import depthLimit from 'graphql-depth-limit';
import { GraphQLError, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { DEFAULT_PAGE_SIZE } from '../shared/model';
import type { GatewayContext } from './context';

/**
 * Limits that protect the whole federated graph from abusive queries, enforced once at the gateway:
 * - depth: nesting of selections (introspection fields excluded), as a validation rule;
 * - cost: every field costs 1; a field taking `limit` multiplies what it selects by that limit.
 */
export function depthRule(maxDepth: number): ValidationRule {
  return depthLimit(maxDepth) as ValidationRule;
}

const pageSizeEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  if (!('limit' in args) && !('first' in args)) return undefined;
  const size = Number(args.limit ?? args.first ?? DEFAULT_PAGE_SIZE);
  return 1 + childComplexity * (Number.isFinite(size) && size > 0 ? size : DEFAULT_PAGE_SIZE);
};

export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  operationName?: string,
): number {
  return getComplexity({
    schema,
    query: document,
    variables,
    operationName,
    estimators: [pageSizeEstimator, simpleEstimator({ defaultComplexity: 1 })],
  });
}

/** Rejects operations costing more than `maxCost` (the REST adapter prices its own once, in `compileRoutes`). */
export function costLimitPlugin(maxCost: number): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, schema, operationName }) {
          const cost = operationCost(schema, document, request.variables ?? {}, operationName ?? undefined);
          if (cost > maxCost) {
            throw new GraphQLError(`Query cost ${cost} exceeds the maximum of ${maxCost}; ask for fewer items or fields`, {
              extensions: { code: 'VALIDATION_ERROR', http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}
