import {
  getNamedType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type SelectionSetNode,
} from 'graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { snakeCase } from '../shared/case';
import { CALENDAR_DATE_MESSAGE, LocalDate, LocalTime } from '../shared/scalars';
import type { FieldIssue } from '../shared/errors';
import { idProblem, textProblem } from '../shared/text';

/**
 * The wire format of the REST API, derived from the GraphQL schema: request values are checked against the
 * operation's variable types and renamed to camelCase; results are renamed to snake_case following the
 * operation's selection set. Both are compiled once per route at start. Business rules stay in the subgraphs;
 * this only checks what the schema's types already say (required, string, integer, one of an enum).
 */

const wireFieldCache = new WeakMap<GraphQLInputObjectType, Map<string, GraphQLInputField>>();

/** Input object fields by the names a client may send: snake_case, or the GraphQL name itself. */
function wireFields(type: GraphQLInputObjectType): Map<string, GraphQLInputField> {
  let map = wireFieldCache.get(type);
  if (!map) {
    map = new Map();
    for (const field of Object.values(type.getFields())) {
      map.set(field.name, field);
      map.set(snakeCase(field.name), field);
    }
    wireFieldCache.set(type, map);
  }
  return map;
}

const join = (path: string, name: string) => (path ? `${path}.${name}` : name);
const INT = /^-?\d+$/;
const FLOAT = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * Reads `value` as `type`. `fromText` is set for path and query parameters, which arrive as strings.
 * Unknown object keys are ignored. Problems are appended to `issues` with snake_case paths.
 */
export function readInput(value: unknown, type: GraphQLInputType, path: string, issues: FieldIssue[], fromText = false): unknown {
  if (isNonNullType(type)) {
    if (value === undefined || value === null || (fromText && value === '')) {
      issues.push({ field: path || 'body', message: value === null ? 'must not be null' : 'is required' });
      return undefined;
    }
    return readInput(value, type.ofType, path, issues, fromText);
  }
  if (value === undefined || value === null) return value;
  // An empty query parameter (`?organization_id=`) is no filter at all.
  if (fromText && value === '') return undefined;
  if (isListType(type)) {
    const items = Array.isArray(value) ? value : fromText && typeof value === 'string' ? value.split(',') : [value];
    return items.map((item, i) => readInput(item, type.ofType, `${path}[${i}]`, issues, fromText));
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) {
      issues.push({ field: path || 'body', message: 'must be a JSON object' });
      return undefined;
    }
    const fields = wireFields(type);
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const field = fields.get(key);
      if (field) out[field.name] = readInput(v, field.type, join(path, snakeCase(field.name)), issues);
    }
    for (const field of Object.values(type.getFields())) {
      if (isNonNullType(field.type) && field.defaultValue === undefined && !(field.name in out)) {
        issues.push({ field: join(path, snakeCase(field.name)), message: 'is required' });
      }
    }
    return out;
  }
  if (isEnumType(type)) {
    const names = type.getValues().map((v) => v.name);
    if (typeof value === 'string' && names.includes(value)) return value;
    issues.push({ field: path, message: `must be one of: ${names.join(', ')}` });
    return undefined;
  }
  if (typeof value === 'string') {
    const problem = textProblem(value);
    if (problem) {
      issues.push({ field: path || 'body', message: problem });
      return undefined;
    }
  }
  switch (type.name) {
    case 'String':
      if (typeof value === 'string') return value;
      issues.push({ field: path, message: 'must be a string' });
      return undefined;
    case 'ID': {
      const id = typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)) ? String(value) : null;
      const problem = id === null ? 'must be an id string' : idProblem(id);
      if (!problem) return id;
      issues.push({ field: path, message: problem });
      return undefined;
    }
    case 'Int': {
      const n = fromText && typeof value === 'string' && INT.test(value) ? Number(value) : value;
      if (typeof n === 'number' && Number.isInteger(n) && Math.abs(n) <= 2147483647) return n;
      issues.push({ field: path, message: 'must be an integer' });
      return undefined;
    }
    case 'Float': {
      const n = fromText && typeof value === 'string' && FLOAT.test(value) ? Number(value) : value;
      if (typeof n === 'number' && Number.isFinite(n)) return n;
      issues.push({ field: path, message: 'must be a number' });
      return undefined;
    }
    case 'Boolean': {
      if (typeof value === 'boolean') return value;
      if (fromText && (value === 'true' || value === 'false')) return value === 'true';
      issues.push({ field: path, message: 'must be true or false' });
      return undefined;
    }
    case 'DateTimeISO':
      // Checked here as the subgraphs' scalar does, so a malformed timestamp is a 400 naming its field.
      try {
        GraphQLDateTimeISO.parseValue(value);
        return value;
      } catch {
        issues.push({ field: path, message: 'must be an ISO 8601 timestamp such as 2026-03-01T09:00:00Z' });
        return undefined;
      }
    case 'JSONObject':
      if (typeof value === 'object' && !Array.isArray(value)) return value;
      issues.push({ field: path, message: 'must be a JSON object' });
      return undefined;
    case 'Decimal':
      if ((typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && DECIMAL.test(value.trim()))) return value;
      issues.push({ field: path, message: 'must be a decimal amount such as "125.50"' });
      return undefined;
    case 'LocalDate':
    case 'LocalTime':
      // Checked here as the subgraphs' scalars do, so a malformed date or time is a 400 naming its field.
      try {
        (type.name === 'LocalDate' ? LocalDate : LocalTime).parseValue(value);
        return value;
      } catch {
        issues.push({
          field: path,
          message: type.name === 'LocalDate' ? CALENDAR_DATE_MESSAGE : 'must be a time of day written HH:MM',
        });
        return undefined;
      }
    default:
      // Other custom scalars (JSON): their owning subgraph parses and validates them.
      return value;
  }
}

const DECIMAL = /^-?\d{1,15}(\.\d{1,6})?$/;

/** How to rename one selected field of a result; `shape` null means copy the value as it is. */
export interface ShapeField {
  from: string;
  to: string;
  shape: ShapeField[] | null;
}

/** Two plans for the same field, merged as GraphQL merges its selections: at every depth. */
function mergeShapes(a: ShapeField[], b: ShapeField[]): ShapeField[] {
  const merged = new Map(a.map((f) => [f.from, f]));
  for (const f of b) {
    const seen = merged.get(f.from);
    merged.set(f.from, seen?.shape && f.shape ? { ...seen, shape: mergeShapes(seen.shape, f.shape) } : f);
  }
  return [...merged.values()];
}

/** Compiles a selection set into the renaming plan for its results. */
export function compileShape(
  selectionSet: SelectionSetNode,
  parent: GraphQLCompositeType,
  fragments: Record<string, FragmentDefinitionNode>,
): ShapeField[] {
  const out = new Map<string, ShapeField>();
  const visit = (set: SelectionSetNode, type: GraphQLCompositeType) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const key = sel.alias?.value ?? sel.name.value;
        const def = isObjectType(type) || isInterfaceType(type) ? type.getFields()[sel.name.value] : undefined;
        const named = def ? getNamedType(def.type) : undefined;
        const childShape = sel.selectionSet && named && isCompositeType(named) ? compileShape(sel.selectionSet, named, fragments) : null;
        const existing = out.get(key);
        if (existing?.shape && childShape) {
          existing.shape = mergeShapes(existing.shape, childShape);
        } else {
          out.set(key, { from: key, to: snakeCase(key), shape: childShape });
        }
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        visit(sel.selectionSet, type);
      } else {
        const fragment = fragments[sel.name.value];
        if (fragment) visit(fragment.selectionSet, type);
      }
    }
  };
  visit(selectionSet, parent);
  return [...out.values()];
}

export function shapeValue(value: unknown, shape: ShapeField[] | null): unknown {
  if (value === null || value === undefined || shape === null) return value;
  if (Array.isArray(value)) return value.map((item) => shapeValue(item, shape));
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of shape) out[f.to] = shapeValue(source[f.from], f.shape);
  return out;
}
