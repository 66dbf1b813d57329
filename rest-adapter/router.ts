import { Router, type Request, type Response } from 'express';
import {
  getNamedType,
  GraphQLNonNull,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  typeFromAST,
  validate,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { match } from 'path-to-regexp';
import type { RequestContext } from '../shared/context';
import { depthRule, operationCost } from '../shared/graphql-limits';
import type { OperationExecutor } from '../shared/prepared-operation';
import { MAX_PAGE_SIZE } from '../shared/model';
import { camelCase, snakeCase } from '../shared/case';
import { AppError, describeIssues, errors, type ErrorCode, type FieldIssue } from '../shared/errors';
import { checkRequirement, type RootRequirement, type RootRequirements } from '../shared/requires-permission';
import { sendData, sendError, sendGraphQLError, userErrorsAsError, type WireUserError } from './envelope';
import type { OperationDocument } from './operations';
import type { HttpMethod, OperationBy, RouteSpec, RouteTable } from './route';
import { idProblem } from '../shared/text';
import { compileShape, readInput, shapeValue, type ShapeField } from './wire';

type VariableSource = 'input' | 'path' | 'field';

interface VariablePlan {
  name: string;
  wire: string;
  type: GraphQLInputType;
  source: VariableSource;
}

export interface CompiledRoute extends RouteSpec {
  tag: string;
  op: OperationDocument;
  variables: VariablePlan[];
  rootKey: string;
  rootType: GraphQLObjectType | undefined;
  /** The root field returns a page: answer with the list envelope. */
  list: boolean;
  /**
   * The root field answers a payload (`XPayload { <record>, userErrors }`): the name of its record field, which is
   * the route's `data` (`rootType` and `shape` are the record's), its user errors the route's error.
   */
  payload?: string;
  shape: ShapeField[] | null;
  pathParams: string[];
  matches: (path: string) => boolean;
  /** An upload route's reserve and complete operations, compiled like routes of the same path. */
  uploadOps?: { reserve: CompiledRoute; complete: CompiledRoute };
  /** A route choosing its operation by a body field (`operationBy`): the field's enum and one route per value. */
  choice?: { type: GraphQLInputType; routes: Map<string, CompiledRoute[]> };
  /** For a route chosen by a value that several operations serve: the ones to try after it. */
  fallbacks?: CompiledRoute[];
  /**
   * What the operation's root field requires, as the graph declares it (`@requiresPermission`,
   * shared/requires-permission.ts): checked before the request's input is read. For an organization permission,
   * `pathParam` is the path parameter naming the organization; without one (the organization is in the body or the
   * query) it is left to the subgraph.
   */
  requirement?: RouteRequirement;
}

export type RouteRequirement = RootRequirement & { pathParam?: string };

export function isPageType(type: unknown): type is GraphQLObjectType {
  if (!isObjectType(type)) return false;
  const fields = type.getFields();
  return type.name.endsWith('Page') && ['items', 'total', 'page', 'limit'].every((f) => f in fields);
}

/** The record field of a mutation payload (docs/graphql.md, "Expected failures"): the one field beside `userErrors`. */
export function payloadRecord(type: unknown): GraphQLField<unknown, unknown> | undefined {
  if (!isObjectType(type)) return undefined;
  const fields = type.getFields();
  if (!fields.userErrors) return undefined;
  const others = Object.values(fields).filter((f) => f.name !== 'userErrors');
  return others.length === 1 ? others[0] : undefined;
}

function compileRoute(
  spec: RouteSpec,
  tag: string,
  schema: GraphQLSchema,
  ops: Map<string, OperationDocument>,
  requirements: RootRequirements,
): CompiledRoute {
  const op = ops.get(spec.operation);
  const where = `${spec.method} ${spec.path}`;
  if (!op) throw new Error(`${where}: no operation document named ${spec.operation}`);
  const pathParams = [...spec.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const variables: VariablePlan[] = (op.operation.variableDefinitions ?? []).map((def) => {
    const name = def.variable.name.value;
    const type = typeFromAST(schema, def.type as never) as GraphQLInputType | undefined;
    if (!type) throw new Error(`${where}: unknown type for $${name}`);
    const pathParam = pathParams.find((p) => camelCase(p) === name);
    if (name === 'input') return { name, wire: '', type, source: 'input' };
    if (pathParam) return { name, wire: pathParam, type, source: 'path' };
    return { name, wire: snakeCase(name), type, source: 'field' };
  });
  for (const p of pathParams) {
    if (!variables.some((v) => v.source === 'path' && v.wire === p)) throw new Error(`${where}: :${p} feeds no variable`);
  }
  if (spec.textBody && !variables.some((v) => v.name === spec.textBody && v.source === 'field')) {
    throw new Error(`${where}: textBody ${spec.textBody} is not a body variable of ${spec.operation}`);
  }
  const roots = op.operation.selectionSet.selections;
  const root = roots[0];
  if (roots.length !== 1 || root.kind !== Kind.FIELD) throw new Error(`${where}: the operation must select one root field`);
  const rootParent = op.operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  const rootField = rootParent?.getFields()[root.name.value];
  const answered = rootField ? getNamedType(rootField.type) : undefined;
  const payload = payloadRecord(answered);
  const rootType = payload ? getNamedType(payload.type) : answered;
  const fragments = Object.fromEntries(
    op.document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  const list = isPageType(rootType);
  let shape: ShapeField[] | null = null;
  if (root.selectionSet && isObjectType(rootType)) {
    let full = compileShape(root.selectionSet, answered as GraphQLObjectType, fragments);
    if (payload) {
      // The record is the answer; the user errors must be asked for, or a refused change would read as a 404.
      const record = full.find((f) => f.from === payload.name);
      if (!record || !full.some((f) => f.from === 'userErrors')) {
        throw new Error(`${where}: ${spec.operation} must select ${root.name.value}'s ${payload.name} and userErrors`);
      }
      full = record.shape ?? [];
    }
    shape = list ? (full.find((f) => f.from === 'items')?.shape ?? null) : full;
    if (spec.envelope === false) shape = keepNames(shape);
  }
  return {
    ...spec,
    tag,
    op,
    variables,
    rootKey: root.alias?.value ?? root.name.value,
    rootType: isObjectType(rootType) ? rootType : undefined,
    list,
    payload: payload?.name,
    shape,
    pathParams,
    requirement: routeRequirement(rootParent ? requirements.get(`${rootParent.name}.${root.name.value}`) : undefined, root, variables),
    matches: (
      (m) => (path: string) =>
        m(path) !== false
    )(match(spec.path, { decode: decodeURIComponent })),
  };
}

/** A root field's requirement, with the path parameter that names the organization when it is one's and the path does. */
function routeRequirement(
  requirement: RootRequirement | undefined,
  root: FieldNode,
  variables: VariablePlan[],
): RouteRequirement | undefined {
  if (requirement?.kind !== 'organization') return requirement;
  const value = root.arguments?.find((a) => a.name.value === requirement.argument)?.value;
  const fed = value?.kind === Kind.VARIABLE ? variables.find((v) => v.name === value.name.value && v.source === 'path') : undefined;
  return fed ? { ...requirement, pathParam: fed.wire } : requirement;
}

/** A renaming plan that keeps the GraphQL names (routes answering a standard's own JSON). */
function keepNames(shape: ShapeField[] | null): ShapeField[] | null {
  return shape && shape.map((f) => ({ from: f.from, to: f.from, shape: keepNames(f.shape) }));
}

/** A value without its null fields, at any depth (absent rather than null, as standards' JSON schemas expect). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

/** A value of `type` that passes coercion, for pricing an operation before any request arrives. */
function placeholder(type: GraphQLInputType): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [];
  if (isEnumType(inner)) return inner.getValues()[0]?.value;
  if (isInputObjectType(inner)) {
    const fields = Object.values(inner.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
    return Object.fromEntries(fields.map((f) => [f.name, placeholder(f.type)]));
  }
  return { Int: 1, Float: 1, Boolean: true }[inner.name] ?? '00000000-0000-4000-8000-000000000000';
}

/** Literal segments win over parameters (`/organizations/me` before `/organizations/:id`). */
function specificity(a: CompiledRoute, b: CompiledRoute): number {
  const sa = a.path.split('/');
  const sb = b.path.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i].startsWith(':');
    const pb = sb[i].startsWith(':');
    if (pa !== pb) return pa ? 1 : -1;
  }
  return 0;
}

export function compileRoutes(
  tables: RouteTable[],
  schema: GraphQLSchema,
  ops: Map<string, OperationDocument>,
  limits: { maxCost: number; maxDepth: number },
  requirements: RootRequirements = new Map(),
): CompiledRoute[] {
  const routes = tables.flatMap((t) =>
    t.routes.map((r) => {
      const route = compileRoute(r, t.tag, schema, ops, requirements);
      if (r.upload) {
        const step = (operation: string) =>
          compileRoute({ ...r, operation, upload: undefined, status: undefined }, t.tag, schema, ops, requirements);
        route.uploadOps = { reserve: step(r.upload.reserve), complete: step(r.upload.complete) };
      }
      if (r.operationBy)
        route.choice = compileChoice(
          r,
          r.operationBy,
          (operation) => compileRoute({ ...r, operation, operationBy: undefined }, t.tag, schema, ops, requirements),
          schema,
        );
      // The requirement is checked before the body is read, so before the operation is chosen or the upload starts:
      // every operation a route may run must require the same.
      const steps = [
        ...(route.uploadOps ? [route.uploadOps.reserve, route.uploadOps.complete] : []),
        ...[...(route.choice?.routes.values() ?? [])].flat(),
      ];
      const required = (s: CompiledRoute) => JSON.stringify(s.requirement ?? null);
      const other = steps.find((s) => required(s) !== required(route));
      if (other) throw new Error(`${r.method} ${r.path}: ${other.op.name} requires ${required(other)}, ${r.operation} ${required(route)}`);
      return route;
    }),
  );
  const checked = routes.flatMap((r) => [
    r,
    ...(r.uploadOps ? [r.uploadOps.reserve, r.uploadOps.complete] : []),
    ...(r.choice ? [...r.choice.routes.values()].flat() : []),
  ]);
  for (const r of checked) {
    const tooDeep = validate(schema, r.op.document, [depthRule(limits.maxDepth)]);
    if (tooDeep.length) throw new Error(`${r.method} ${r.path}: ${tooDeep[0].message}`);
    // Priced once here, at the largest page a client may ask for, instead of per request.
    const worst = Object.fromEntries(r.variables.map((v) => [v.name, v.name === 'limit' ? MAX_PAGE_SIZE : placeholder(v.type)]));
    const cost = operationCost(schema, r.op.document, worst, r.op.name);
    if (cost > limits.maxCost) {
      throw new Error(`${r.method} ${r.path}: operation ${r.op.name} costs ${cost}, over the limit ${limits.maxCost}`);
    }
  }
  const seen = new Set<string>();
  for (const r of routes) {
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) throw new Error(`route ${key} is defined twice`);
    seen.add(key);
  }
  return routes.sort(specificity);
}

/**
 * The routes of a path choosing its operation by a body field: every value of the field's enum runs an operation or
 * is refused, so a value the enum gains later cannot go unnoticed.
 */
function compileChoice(
  spec: RouteSpec,
  by: OperationBy,
  compile: (operation: string) => CompiledRoute,
  schema: GraphQLSchema,
): NonNullable<CompiledRoute['choice']> {
  const where = `${spec.method} ${spec.path}`;
  if (!spec.operationId) throw new Error(`${where}: a route choosing its operation by a body field names its operationId`);
  const type = schema.getType(by.type);
  if (!isEnumType(type)) throw new Error(`${where}: operationBy type ${by.type} is not an enum`);
  const values = type.getValues().map((v) => v.name);
  const named = [...Object.keys(by.operations), ...Object.keys(by.refused ?? {})];
  const unknown = named.find((v) => !values.includes(v));
  if (unknown) throw new Error(`${where}: ${unknown} is not a value of ${by.type}`);
  const left = values.find((v) => !named.includes(v));
  if (left) throw new Error(`${where}: ${by.type} value ${left} neither runs an operation nor is refused`);
  const compiled = new Map<string, CompiledRoute>();
  const routes = new Map(
    Object.entries(by.operations).map(([value, names]) => [
      value,
      [names].flat().map((operation) => {
        if (!compiled.has(operation)) compiled.set(operation, compile(operation));
        return compiled.get(operation)!;
      }),
    ]),
  );
  return { type: new GraphQLNonNull(type), routes };
}

/**
 * The route a request runs: itself, or for a route choosing by a body field the one its value names (the field read
 * like a variable: from the body, else the query). A value missing or outside the enum adds an issue naming the
 * field and answers the route itself (its variables are read for their issues too); a refused value answers its refusal.
 */
function chooseRoute(
  route: CompiledRoute,
  req: VariableSources,
  issues: FieldIssue[],
): CompiledRoute | { code: ErrorCode; message: string } {
  const by = route.operationBy;
  if (!route.choice || !by) return route;
  const body = withSynonyms(req.body as unknown, route.synonyms);
  const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const fromBody = by.field in fields;
  const raw = fromBody ? fields[by.field] : (req.query as Record<string, unknown>)[by.field];
  const value = readInput(raw, route.choice.type, by.field, issues, !fromBody) as string | undefined;
  if (value === undefined) return route;
  const [first, ...fallbacks] = route.choice.routes.get(value) ?? [];
  return first ? { ...first, fallbacks } : by.refused![value];
}

type ExecutionResult = Awaited<ReturnType<OperationExecutor['execute']>>;

/** Runs the route's operation; one its state machine refuses moves on to the route's fallbacks, if any. */
async function run(route: CompiledRoute, gateway: OperationExecutor, variables: Record<string, unknown>, ctx: RequestContext) {
  const first: ExecutionResult = await gateway.execute(route.op, variables, ctx);
  for (const next of route.fallbacks ?? []) {
    if (first.errors?.[0]?.extensions?.reason !== 'ILLEGAL_TRANSITION') break;
    const result = await gateway.execute(next.op, variables, ctx);
    if (result.errors?.[0]?.extensions?.reason !== 'ILLEGAL_TRANSITION') return { route: next, result };
  }
  return { route, result: first };
}

/** The body with the route's synonyms renamed to the fields they stand for (a field sent under its own name wins). */
function withSynonyms(body: unknown, synonyms: RouteSpec['synonyms']): unknown {
  if (!synonyms || !body || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [alias, target] of Object.entries(synonyms)) {
    if (!(alias in out)) continue;
    const name = typeof target === 'object' ? target.to : typeof target === 'function' ? target(out[alias]) : target;
    // A field's own name with `{ to, value }`: its value in other words (`Male` for `male`), the field kept.
    if (name === alias) {
      if (typeof target === 'object') out[name] = target.value(out[alias]);
      continue;
    }
    if (!(name in out)) out[name] = typeof target === 'object' ? target.value(out[alias]) : out[alias];
    delete out[alias];
  }
  return out;
}

/** The parts of a request variables are read from (an upload passes its own body and fields). */
export type VariableSources = Pick<Request, 'body' | 'query' | 'params'>;

export function readVariables(route: CompiledRoute, req: VariableSources, issues: FieldIssue[]): Record<string, unknown> {
  // A plain-text body goes, whole, to the route's text variable.
  const body = withSynonyms(typeof req.body === 'string' ? { [route.textBody!]: req.body } : (req.body as unknown), route.synonyms);
  const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const query = req.query as Record<string, unknown>;
  const variables: Record<string, unknown> = {};
  for (const v of route.variables) {
    let value: unknown;
    if (v.source === 'input') {
      value = readInput(body === undefined ? {} : body, v.type, '', issues);
    } else if (v.source === 'path') {
      value = readInput(req.params[v.wire], v.type, v.wire, issues, true);
    } else if (v.wire in fields || v.name in fields) {
      value = readInput(fields[v.wire] ?? fields[v.name], v.type, v.wire, issues);
    } else {
      const raw = query[v.wire] ?? query[v.name];
      value = readInput(raw, v.type, v.wire, issues, true);
    }
    if (value !== undefined) variables[v.name] = value;
  }
  return variables;
}

/**
 * Who before what: an anonymous caller of a route that is not public (401), and a caller without the role the
 * route's operation declares (403; 404 for an outsider of the organization the path names) are turned away before
 * the request's input is read, so neither learns from validation messages what the operation takes. The subgraph
 * checks the same again; this only comes first.
 */
export function refusedCaller(route: CompiledRoute, req: Pick<Request, 'viewer' | 'params'>): AppError | undefined {
  if (!req.viewer && route.access !== 'public') return errors.unauthorized();
  const requirement = route.requirement;
  if (!requirement || (requirement.kind === 'organization' && !requirement.pathParam)) return undefined;
  try {
    checkRequirement(requirement, req.viewer, () => {
      // A path segment that is no id answers 404 in its turn, as for any route.
      const id = String(req.params[requirement.pathParam!]);
      return idProblem(id) ? undefined : id;
    });
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  return undefined;
}

export function contextOf(req: Request): RequestContext {
  return { viewer: req.viewer, requestId: req.id, ip: req.ip, userAgent: req.headers['user-agent'] };
}

function handler(route: CompiledRoute, gateway: OperationExecutor) {
  // A path segment that should name a record by id and is no id names nothing: 404, before any query.
  const idParams = route.variables.filter((v) => v.source === 'path' && getNamedType(v.type).name === 'ID').map((v) => v.wire);
  return async (req: Request, res: Response) => {
    if (typeof req.body === 'string' && !route.textBody) {
      return sendError(res, 'UNSUPPORTED_MEDIA_TYPE', 'Request body must be JSON, sent with Content-Type: application/json');
    }
    const refused = refusedCaller(route, req);
    if (refused) return sendGraphQLError(res, refused);
    if (idParams.some((p) => idProblem(String(req.params[p])))) return sendError(res, 'NOT_FOUND', 'Resource not found');
    const issues: FieldIssue[] = [];
    const chosen = chooseRoute(route, req, issues);
    const target = 'op' in chosen ? chosen : route;
    const variables = readVariables(target, req, issues);
    if (issues.length) return sendError(res, 'VALIDATION_ERROR', describeIssues(issues), issues);
    if (!('op' in chosen)) {
      const refusal = chosen.code === 'VALIDATION_ERROR' ? [{ field: route.operationBy!.field, message: chosen.message }] : [];
      return sendError(res, chosen.code, refusal.length ? describeIssues(refusal) : chosen.message, refusal);
    }
    const ran = await run(target, gateway, variables, contextOf(req));
    answer(ran.route, res, ran.result);
  };
}

type GraphQLErrorLike = { message: string; path?: readonly (string | number)[]; extensions?: Record<string, unknown> };

/**
 * The errors that fail the request: all of them, less the refusals of single fields inside an answered root field (a
 * clinical field a receptionist may not read: null with FORBIDDEN at its path). As in GraphQL, the rest of the
 * record stands: the route answers with those fields null.
 */
export function failingErrors(errors: readonly GraphQLErrorLike[] | undefined, data: unknown, rootKey: string): GraphQLErrorLike[] {
  const answered = (data as Record<string, unknown> | null | undefined)?.[rootKey] != null;
  return (errors ?? []).filter(
    (e) => !(answered && e.extensions?.code === 'FORBIDDEN' && (e.path?.length ?? 0) > 1 && e.path![0] === rootKey),
  );
}

/** Sends an operation's result as the route's envelope: the root field as `data`, a page with `meta`, errors mapped. */
export function answer(
  route: CompiledRoute,
  res: Response,
  { data, errors }: { data?: unknown; errors?: readonly GraphQLErrorLike[] },
): void {
  const failing = failingErrors(errors, data, route.rootKey);
  if (failing.length) return sendGraphQLError(res, failing[0]);
  let value = (data as Record<string, unknown> | null | undefined)?.[route.rootKey];
  if (route.payload && value) {
    const { userErrors, [route.payload]: record } = value as { userErrors?: WireUserError[] } & Record<string, unknown>;
    if (userErrors?.length) return sendGraphQLError(res, userErrorsAsError(userErrors));
    value = record;
  }
  if (value === null || value === undefined) return sendError(res, 'NOT_FOUND', 'Resource not found');
  const status = route.status ?? 200;
  if (route.envelope === false) return void res.status(status).json(withoutNulls(shapeValue(value, route.shape)));
  if (route.list) {
    const page = value as { items: unknown[]; total: number; page: number; limit: number; totalIsEstimate?: boolean };
    return sendData(res, status, shapeValue(page.items, route.shape), {
      page: page.page,
      limit: page.limit,
      total: page.total,
      // Only lists that estimate large totals say so, and only when they did (the meta of SPEC otherwise).
      ...(page.totalIsEstimate ? { total_is_estimate: true } : {}),
    });
  }
  sendData(res, status, shapeValue(value, route.shape));
}

export const METHODS: Record<HttpMethod, 'get' | 'post' | 'put' | 'patch' | 'delete'> = {
  GET: 'get',
  POST: 'post',
  PUT: 'put',
  PATCH: 'patch',
  DELETE: 'delete',
};

/**
 * Methods that also serve a route. SPEC leaves update methods open, so a PATCH route (a partial update) also
 * answers PUT with the same meaning, and a PATCH on a `/status` path (a state change, which clients also send as an
 * action) answers POST too, unless the table defines that method on the path itself.
 */
function aliasesOf(route: { method: HttpMethod; path: string }, routes: { method: HttpMethod; path: string }[]): HttpMethod[] {
  if (route.method !== 'PATCH') return [];
  const aliases: HttpMethod[] = route.path.endsWith('/status') ? ['PUT', 'POST'] : ['PUT'];
  return aliases.filter((m) => !routes.some((r) => r.method === m && r.path === route.path));
}

/** An Express router serving every compiled route and its aliases. */
export function restRouter(routes: CompiledRoute[], gateway: OperationExecutor): Router {
  const router = Router();
  for (const route of routes) {
    // An upload route takes other bodies only when it says so; rest-adapter/upload.ts serves the rest.
    if (route.upload && !route.upload.json) continue;
    router[METHODS[route.method]](route.path, handler(route, gateway));
    for (const alias of aliasesOf(route, routes)) router[METHODS[alias]](route.path, handler(route, gateway));
  }
  return router;
}

/** Methods served on a path, for 405 answers. */
export function allowedMethods(routes: CompiledRoute[], path: string): HttpMethod[] {
  const matching = routes.filter((r) => r.matches(path));
  return [...new Set(matching.flatMap((r) => [r.method, ...aliasesOf(r, routes)]))];
}
