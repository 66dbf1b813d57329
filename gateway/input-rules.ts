import type { ApolloServerPlugin } from '@apollo/server';
import {
  getNamedType,
  GraphQLError,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { describeIssues, type FieldIssue } from '../shared/errors';
import { idProblem, textProblem } from '../shared/text';
import type { GatewayContext } from './context';

/** The problem with one string value of GraphQL type `named`, or null. */
function stringProblem(value: string, named: string): string | null {
  return textProblem(value) ?? (named === 'ID' ? idProblem(value) : null);
}

/** Walks a variable's value along its type, collecting the strings that break the platform's text and id rules. */
function checkValue(value: unknown, type: GraphQLInputType, path: string, issues: FieldIssue[]): void {
  if (value === null || value === undefined) return;
  if (isNonNullType(type)) return checkValue(value, type.ofType, path, issues);
  if (isListType(type)) {
    if (Array.isArray(value)) value.forEach((item, i) => checkValue(item, type.ofType, `${path}[${i}]`, issues));
    else checkValue(value, type.ofType, path, issues);
    return;
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) return; // graphql-js reports the wrong type
    const fields = type.getFields();
    for (const [key, v] of Object.entries(value)) if (fields[key]) checkValue(v, fields[key].type, `${path}.${key}`, issues);
    return;
  }
  if (typeof value === 'string') {
    const problem = stringProblem(value, type.name);
    if (problem) issues.push({ field: path, message: problem });
  }
}

/** The operation's variables and literal arguments, checked against the text and id rules (shared/text.ts). */
export function inputIssues(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Record<string, unknown>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const def of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, def.type as never) as GraphQLInputType | undefined;
    const name = def.variable.name.value;
    if (type) checkValue(variables[name], type, name, issues);
  }
  const typeInfo = new TypeInfo(schema);
  const names: string[] = [];
  visit(
    operation,
    visitWithTypeInfo(typeInfo, {
      Argument: { enter: (node) => void names.push(node.name.value), leave: () => void names.pop() },
      ObjectField: { enter: (node) => void names.push(node.name.value), leave: () => void names.pop() },
      StringValue(node) {
        const named = getNamedType(typeInfo.getInputType());
        const problem = stringProblem(node.value, named?.name ?? 'String');
        if (problem) issues.push({ field: names.join('.') || 'query', message: problem });
      },
      // A fragment's literals are checked where it is defined; variables above.
      [Kind.VARIABLE]: () => undefined,
    }),
  );
  return issues;
}

/** Refuses, with a 400 naming each field, an operation whose input breaks the text or id rules. */
export function inputRulesPlugin(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, operation, schema }) {
          if (!operation) return;
          const issues = inputIssues(schema, operation, request.variables ?? {});
          if (issues.length) {
            throw new GraphQLError(describeIssues(issues), {
              extensions: { code: 'VALIDATION_ERROR', details: issues, http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}
