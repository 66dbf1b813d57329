import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  Kind,
  parse,
  print,
  validate,
  visit,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { PreparedOperation } from '../shared/prepared-operation';
import { SCHEMA_DIR } from '../shared/paths';

export interface OperationDocument extends PreparedOperation {
  file: string;
}

function graphqlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return graphqlFiles(path);
      return entry.endsWith('.graphql') ? [path] : [];
    });
}

function spreadNames(node: OperationDefinitionNode | FragmentDefinitionNode): string[] {
  const names: string[] = [];
  visit(node, { FragmentSpread: (s) => void names.push(s.name.value) });
  return names;
}

/**
 * Reads every operation document once, at start. An operation file holds exactly one named operation; a file
 * holding only fragments (`fragments.graphql`) shares them with every operation. Each operation, with the
 * fragments it uses, is validated against the API schema: a broken document stops the start, not a request.
 */
export function loadOperations(schema: GraphQLSchema, dir = join(SCHEMA_DIR, 'operations')): Map<string, OperationDocument> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: { file: string; operation: OperationDefinitionNode }[] = [];
  for (const path of graphqlFiles(dir)) {
    const file = relative(SCHEMA_DIR, path);
    const document = parse(readFileSync(path, 'utf8'));
    const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    for (const d of document.definitions) {
      if (d.kind !== Kind.FRAGMENT_DEFINITION) continue;
      if (fragments.has(d.name.value)) throw new Error(`${file}: fragment ${d.name.value} is defined twice`);
      fragments.set(d.name.value, d);
    }
    if (ops.length > 1 || (ops.length === 1 && !ops[0].name)) throw new Error(`${file}: expected one named operation`);
    if (ops.length) operations.push({ file, operation: ops[0] });
  }
  const found = new Map<string, OperationDocument>();
  for (const { file, operation } of operations) {
    const name = operation.name!.value;
    if (found.has(name)) throw new Error(`${file}: operation ${name} is also defined in ${found.get(name)!.file}`);
    const used = new Map<string, FragmentDefinitionNode>();
    const pending = spreadNames(operation);
    while (pending.length) {
      const next = pending.pop()!;
      if (used.has(next)) continue;
      const fragment = fragments.get(next);
      if (!fragment) throw new Error(`${file}: unknown fragment ${next}`);
      used.set(next, fragment);
      pending.push(...spreadNames(fragment));
    }
    const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [operation, ...used.values()] };
    const problems = validate(schema, document);
    if (problems.length) throw new Error(`${file}: ${problems.map((p) => p.message).join('; ')}`);
    const source = print(document);
    const queryHash = createHash('sha256').update(source).digest('hex');
    found.set(name, { name, file, source, document, operation, queryHash });
  }
  return found;
}
