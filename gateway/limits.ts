import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { errors } from '../shared/errors';
import { operationCost } from '../shared/graphql-limits';
import type { GatewayContext } from './context';

export { checkSource, depthRule, MAX_TOKENS, operationCost } from '../shared/graphql-limits';

/** Rejects operations costing more than `maxCost` (the REST adapter prices its own once, in `compileRoutes`). */
export function costLimitPlugin(maxCost: number): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, schema, operation, operationName }) {
          // No operation to run (an unknown operationName, several anonymous ones): execution reports that as a 400.
          if (!operation) return;
          let cost: number;
          try {
            cost = operationCost(schema, document, request.variables ?? {}, operationName ?? undefined);
          } catch (err) {
            // Variables that do not fit their types, too many nodes: the request's fault, said as graphql-js says it.
            if (!(err instanceof GraphQLError)) throw err;
            throw new GraphQLError(err.message, { extensions: { code: 'VALIDATION_ERROR', http: { status: 400 } } });
          }
          if (cost > maxCost) {
            const error = errors.queryTooComplex(
              `Query cost ${cost} exceeds the maximum of ${maxCost}; ask for fewer items or fields`,
              'cost',
              maxCost,
              cost,
            );
            Object.assign(error.extensions, { http: { status: 400 } });
            throw error;
          }
        },
      };
    },
  };
}
