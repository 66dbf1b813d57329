import { randomUUID } from 'node:crypto';
import {
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';

/**
 * Walks the API schema from every root Query field: one query per root field selecting, as deep as `depth`, every
 * path that leads to a field marked clinical or to a clinical record, and the walk of its answer. Arguments are
 * filled from their names and types; a required input object needs a value from `argument`, or the walk stops and
 * says which.
 */

export interface WalkOptions {
  /** `Type.field` of every field marked clinical. */
  marked: Set<string>;
  /** Types whose whole record is clinical: selected as `__typename id`, never entered. */
  clinicalTypes: Set<string>;
  /** Object levels below the root field. */
  depth: number;
  /** A value for an argument (root field name, argument); undefined to use the default by name and type. */
  argument(field: GraphQLField<unknown, unknown>, arg: GraphQLArgument): unknown;
}

export interface RootQuery {
  field: string;
  query: string;
  variables: Record<string, unknown>;
}

const PAGE_SIZE = 2;
const today = () => new Date().toISOString().slice(0, 10);

/** A value for an argument no one named: sizes small, ids unknown, dates today, enums their first value. */
function defaultValue(arg: GraphQLArgument): unknown {
  if (['limit', 'first'].includes(arg.name)) return PAGE_SIZE;
  if (arg.name === 'page') return 1;
  if (!isNonNullType(arg.type)) return undefined;
  return valueOf(arg.type, arg.name);
}

function valueOf(type: GraphQLInputType, name: string): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [valueOf(inner.ofType, name)];
  if (isEnumType(inner)) return inner.getValues()[0].value;
  if (isInputObjectType(inner)) throw new Error(`no value for the input ${inner.name} of ${name}: give one in the walk's arguments`);
  switch (inner.name) {
    case 'ID':
      return randomUUID();
    case 'Int':
    case 'Float':
      return 1;
    case 'Boolean':
      return true;
    case 'LocalDate':
      return today();
    case 'DateTimeISO':
      return new Date().toISOString();
    default:
      return 'test';
  }
}

export function rootQueries(schema: GraphQLSchema, opts: WalkOptions): RootQuery[] {
  const memo = new Map<string, boolean>();
  const interesting = (t: GraphQLNamedType): boolean =>
    opts.clinicalTypes.has(t.name) || (isObjectType(t) && Object.keys(t.getFields()).some((f) => opts.marked.has(`${t.name}.${f}`)));
  const possible = (t: GraphQLNamedType): GraphQLObjectType[] =>
    isAbstractType(t) ? [...schema.getPossibleTypes(t)] : isObjectType(t) ? [t] : [];
  /** Whether something interesting is within `depth` object levels of the type. */
  const leads = (t: GraphQLNamedType, depth: number): boolean => {
    const key = `${t.name}:${depth}`;
    if (memo.has(key)) return memo.get(key)!;
    memo.set(key, false);
    const found = possible(t).some(
      (o) =>
        interesting(o) ||
        (depth > 0 &&
          !opts.clinicalTypes.has(o.name) &&
          Object.values(o.getFields()).some(
            (f) => nestedArgs(f) !== null && !isLeafType(getNamedType(f.type)) && leads(getNamedType(f.type), depth - 1),
          )),
    );
    memo.set(key, found);
    return found;
  };
  /** The arguments of a nested field: page sizes; null when it has a required one (left out of the walk). */
  const nestedArgs = (f: GraphQLField<unknown, unknown>): string | null => {
    if (f.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) return null;
    const sizes = f.args.filter((a) => ['limit', 'first'].includes(a.name)).map((a) => `${a.name}: ${PAGE_SIZE}`);
    return sizes.length ? `(${sizes.join(', ')})` : '';
  };
  const select = (t: GraphQLObjectType, depth: number, path: Set<string>): string => {
    const fields = t.getFields();
    const parts = ['__typename', ...('id' in fields && isLeafType(getNamedType(fields.id.type)) ? ['id'] : [])];
    if (opts.clinicalTypes.has(t.name)) return parts.join(' ');
    for (const f of Object.values(fields)) {
      const named = getNamedType(f.type);
      if (isLeafType(named)) {
        if (opts.marked.has(`${t.name}.${f.name}`)) parts.push(f.name);
        continue;
      }
      const args = nestedArgs(f);
      if (args === null || depth <= 0 || path.has(named.name) || !leads(named, depth - 1)) continue;
      parts.push(`${f.name}${args} { ${selectNamed(named, depth - 1, new Set([...path, named.name]))} }`);
    }
    return parts.join(' ');
  };
  const selectNamed = (t: GraphQLNamedType, depth: number, path: Set<string>): string => {
    if (isObjectType(t)) return select(t, depth, path);
    const branches = possible(t)
      .filter((o) => leads(o, depth))
      .map((o) => `... on ${o.name} { ${select(o, depth, new Set([...path, o.name]))} }`);
    return ['__typename', ...branches].join(' ');
  };

  return Object.values(schema.getQueryType()!.getFields()).map((field) => {
    const variables: Record<string, unknown> = {};
    const definitions: string[] = [];
    const args: string[] = [];
    for (const arg of field.args) {
      const given = opts.argument(field, arg);
      const value = given !== undefined ? given : defaultValue(arg);
      if (value === undefined) continue;
      variables[arg.name] = value;
      definitions.push(`$${arg.name}: ${String(arg.type)}`);
      args.push(`${arg.name}: $${arg.name}`);
    }
    const named = getNamedType(field.type);
    const selection = isLeafType(named) ? '' : ` { ${selectNamed(named, opts.depth, new Set([named.name]))} }`;
    const head = definitions.length ? `(${definitions.join(', ')})` : '';
    const call = args.length ? `(${args.join(', ')})` : '';
    return { field: field.name, query: `query Walk_${field.name}${head} { ${field.name}${call}${selection} }`, variables };
  });
}

export interface Seen {
  /** Where in the answer, as GraphQL error paths say it. */
  path: (string | number)[];
  type: string;
}

export interface SeenField extends Seen {
  field: string;
  value: unknown;
}

/** The clinical records and the marked fields an answer holds, with their paths. */
export function observe(data: unknown, opts: Pick<WalkOptions, 'marked' | 'clinicalTypes'>): { records: Seen[]; fields: SeenField[] } {
  const records: Seen[] = [];
  const fields: SeenField[] = [];
  const visit = (value: unknown, path: (string | number)[]): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => visit(v, [...path, i]));
    if (value === null || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    const type = typeof object.__typename === 'string' ? object.__typename : undefined;
    if (type && opts.clinicalTypes.has(type)) records.push({ path, type });
    for (const [key, v] of Object.entries(object)) {
      if (type && opts.marked.has(`${type}.${key}`)) fields.push({ path: [...path, key], type, field: key, value: v });
      else visit(v, [...path, key]);
    }
  };
  visit(data, []);
  return { records, fields };
}
