import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  GraphQLNonNull,
  type GraphQLInputType,
  type GraphQLOutputType,
} from 'graphql';
import { snakeCase } from '../shared/case';
import { ERROR_STATUS } from '../shared/errors';
import { PERMISSIONS, PLATFORM_PERMISSIONS } from '../shared/permissions';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../shared/model';
import { takesIdempotencyKey } from './idempotency';
import { TEXT_TYPES } from './route';
import type { CompiledRoute } from './router';
import type { WebhookRoute } from './routes/webhooks';
import type { ShapeField } from './wire';

type Schema = Record<string, unknown>;

/**
 * OpenAPI 3.0 document generated from the route table: paths and methods from the routes, parameters and
 * bodies from the operations' variable types, responses from their selection sets. Nothing is written by hand,
 * so the document cannot drift from what the adapter serves.
 */
const SCALARS: Record<string, Schema> = {
  String: { type: 'string' },
  ID: { type: 'string', format: 'uuid' },
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  Decimal: {
    type: 'string',
    pattern: '^\\d+(\\.\\d{1,4})?$',
    example: '125.50',
    description:
      'Exact decimal with its currency\'s ISO 4217 decimals ("125.50" KES, "5000" UGX, "1.250" KWD); numbers are accepted on input',
  },
  DateTimeISO: { type: 'string', format: 'date-time' },
  LocalDate: { type: 'string', format: 'date', description: 'A calendar date, YYYY-MM-DD' },
  LocalTime: { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', example: '09:30', description: 'A time of day, HH:MM (24 hours)' },
  JSON: { type: 'object', additionalProperties: true },
  JSONObject: { type: 'object', additionalProperties: true },
};

/** Sent on every answer that passed authentication (rest-adapter/envelope.ts, gateway/authenticate.ts). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
};

/** A schema with a description; a `$ref` is wrapped, since OpenAPI 3.0 ignores anything beside a `$ref`. */
const describe = (schema: Schema, description?: string | null): Schema =>
  !description ? schema : schema.$ref ? { allOf: [schema], description } : { ...schema, description };

/**
 * Who may call a route restricted by role, as the graph declares it (shared/requires-permission.ts): an extension
 * for tools (`x-platform-permission` or `x-org-permission`) and a sentence of the description for people.
 */
function access(route: CompiledRoute): { extension: Record<string, unknown>; sentence: string } | undefined {
  const r = route.requirement;
  if (!r) return undefined;
  if (r.kind === 'platform') {
    const roles = [...PLATFORM_PERMISSIONS[r.permission]];
    return {
      extension: { 'x-platform-permission': { name: r.permission, roles } },
      sentence: `Only ${roles.join(', ')} (\`${r.permission}\`): any other caller gets 403, whatever it sends.`,
    };
  }
  const roles = [...PERMISSIONS[r.permission].roles];
  const where = r.pathParam ? `the organization \`${r.pathParam}\` names` : 'the organization the request names';
  const early = r.pathParam ? ', whatever it sends' : '';
  return {
    extension: { 'x-org-permission': { name: r.permission, roles, organization: r.pathParam ?? null } },
    sentence:
      `Needs \`${r.permission}\` in ${where} (${roles.join(', ')}; platform administrators too): ` +
      `another member gets 403 and an outsider 404${early}.`,
  };
}

function description(route: CompiledRoute): string | undefined {
  const who = access(route)?.sentence;
  if (!who) return route.description;
  return route.description ? `${route.description}\n\n${who}` : who;
}

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase())
    .join('');

/**
 * One operationId per method and path, derived from the route table alone, so it is stable from one start to the
 * next: the operation's name where one route uses it; where several do (a GET and a POST on the same path, two
 * paths of a standard), the name followed by the method, and where that is not enough yet, by the path's literal
 * segments as well (`InvokeCdsHookPostCdsServices`). The GraphQL operation stays in `x-graphql-operation`.
 */
export function operationIds(routes: { operation: string; operationId?: string; method: string; path: string }[]): string[] {
  const count = (ids: string[]) => ids.reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map<string, number>());
  // A route that names its operationId keeps it (one choosing its operation by a body field, a renamed mutation).
  const names = routes.map((r) => r.operationId ?? r.operation);
  const byName = count(names);
  const withMethod = names.map((name, i) => (byName.get(name)! > 1 ? name + pascal(routes[i].method) : name));
  const taken = count(withMethod);
  const ids = routes.map((r, i) =>
    taken.get(withMethod[i])! > 1
      ? withMethod[i] +
        pascal(
          r.path
            .split('/')
            .filter((seg) => seg && !seg.startsWith(':') && seg !== 'api')
            .join('-'),
        )
      : withMethod[i],
  );
  const clash = [...count(ids)].find(([, n]) => n > 1);
  if (clash) throw new Error(`operationId ${clash[0]} would be used by ${clash[1]} routes: give one of them another operation or path`);
  return ids;
}

export interface OpenApiOptions {
  info: { title: string; version: string; description: string };
  /** Where the API is reached (`PUBLIC_URL`). */
  servers: { url: string; description?: string }[];
  webhooks?: WebhookRoute[];
}

export function buildOpenApi(routes: CompiledRoute[], { info, servers, webhooks = [] }: OpenApiOptions) {
  const components: Record<string, Schema> = {};

  const input = (type: GraphQLInputType): Schema => {
    if (isNonNullType(type)) return input(type.ofType);
    if (isListType(type)) return { type: 'array', items: input(type.ofType) };
    if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.name) };
    if (isInputObjectType(type)) {
      if (!components[type.name]) {
        components[type.name] = {};
        const fields = Object.values(type.getFields());
        const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => snakeCase(f.name));
        components[type.name] = {
          type: 'object',
          properties: Object.fromEntries(fields.map((f) => [snakeCase(f.name), describe(input(f.type), f.description)])),
          ...(required.length ? { required } : {}),
        };
      }
      return { $ref: `#/components/schemas/${type.name}` };
    }
    return { ...(SCALARS[type.name] ?? { type: 'string' }) };
  };

  /**
   * A result's schema, following the operation's selection. Every selected field is in the answer (`required`), with
   * `null` where GraphQL allows it (`nullable`); a route answering a standard's own JSON (`keepsNulls` false) leaves
   * null fields out, so only its non-null fields are required there.
   */
  const output = (type: GraphQLOutputType, shape: ShapeField[] | null, keepsNulls: boolean): Schema => {
    const nullable = !isNonNullType(type);
    const inner = isNonNullType(type) ? type.ofType : type;
    let schema: Schema;
    if (isListType(inner)) schema = { type: 'array', items: output(inner.ofType, shape, keepsNulls) };
    else if (isEnumType(inner)) schema = { type: 'string', enum: inner.getValues().map((v) => v.name) };
    else if ((isObjectType(inner) || isInterfaceType(inner)) && shape) {
      const fields = inner.getFields();
      const required = shape.filter((f) => keepsNulls || (fields[f.from] && isNonNullType(fields[f.from].type))).map((f) => f.to);
      schema = {
        type: 'object',
        properties: Object.fromEntries(
          shape.map((f) => {
            const def = fields[f.from];
            return [f.to, def ? describe(output(def.type, f.shape, keepsNulls), def.description) : { type: 'string' }];
          }),
        ),
        ...(required.length ? { required } : {}),
      };
    } else schema = { ...(SCALARS[getNamedType(inner).name] ?? { type: 'object' }) };
    if (!nullable) return schema;
    // OpenAPI 3.0.3: `nullable` does not add null to an `enum`; it is listed so validators accept it.
    return { ...schema, nullable: true, ...(Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {}) };
  };

  const paths: Record<string, Record<string, unknown>> = {};
  const ids = operationIds(routes);
  for (const [index, route] of routes.entries()) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const bodyAllowed = route.method !== 'GET' && route.method !== 'DELETE';
    const parameters: Schema[] = [];
    let body: Schema | undefined;
    const bodyFields: Record<string, Schema> = {};
    const bodyRequired: string[] = [];
    // An upload route's own operation, when it takes no JSON, is only its upload's last step: its variables are not the client's.
    const fileOnly = !!route.upload && !route.upload.json;
    // A route choosing its operation by a body field takes the variables of every operation it may run.
    const variables = route.choice
      ? [
          ...new Map(
            [...route.choice.routes.values()]
              .flat()
              .flatMap((r) => r.variables)
              .map((v) => [v.name, v]),
          ).values(),
        ]
      : route.variables;
    for (const v of fileOnly ? variables.filter((v) => v.source === 'path') : variables) {
      if (v.source === 'input') body = input(v.type);
      else if (v.source === 'path') parameters.push({ name: v.wire, in: 'path', required: true, schema: input(v.type) });
      else if (bodyAllowed) {
        bodyFields[v.wire] = input(v.type);
        if (isNonNullType(v.type)) bodyRequired.push(v.wire);
      } else {
        let schema = input(v.type);
        let description: string | undefined;
        if (v.name === 'limit') {
          schema = { ...schema, minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE };
          description = `Items per page, 1 to ${MAX_PAGE_SIZE}`;
        }
        if (v.name === 'page') {
          schema = { ...schema, minimum: 1, default: 1 };
          description = 'Page number, from 1 (the first page); a page past the last answers an empty list';
        }
        parameters.push({ name: v.wire, in: 'query', required: isNonNullType(v.type), ...(description ? { description } : {}), schema });
      }
    }
    if (takesIdempotencyKey(route.method, route.path)) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
    if (route.operationBy) {
      // The values that run an operation (each a transition); the others of the enum are refused.
      const values = Object.keys(route.operationBy.operations);
      bodyFields[route.operationBy.field] = { type: 'string', enum: values, description: `The state wanted: ${values.join(', ')}` };
      bodyRequired.push(route.operationBy.field);
    }
    if (Object.keys(bodyFields).length) {
      const fields: Schema = { type: 'object', properties: bodyFields, ...(bodyRequired.length ? { required: bodyRequired } : {}) };
      body = body ? { allOf: [body, fields] } : fields;
    }
    const keepsNulls = route.envelope !== false;
    const data: Schema = !route.rootType
      ? { type: 'object' }
      : route.list
        ? output(route.rootType.getFields().items.type, route.shape, keepsNulls)
        : output(new GraphQLNonNull(route.rootType), route.shape, keepsNulls);
    const success: Schema =
      route.envelope === false
        ? data
        : {
            type: 'object',
            required: ['success', 'data', ...(route.list ? ['meta'] : [])],
            properties: {
              success: { type: 'boolean', enum: [true] },
              data,
              ...(route.list ? { meta: { $ref: '#/components/schemas/PageMeta' } } : {}),
            },
          };
    const errorCodes = [400, 401, 403, 404, 409, ...(route.upload ? [413, 415] : []), 429, 500, 503].filter(
      (s) => !(route.access === 'public' && s === 403),
    );
    const file = route.upload
      ? {
          'audio/*': { schema: { type: 'string', format: 'binary' } },
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                file: {
                  type: 'string',
                  format: 'binary',
                  description: 'The audio (the first file part); text fields before it are read as query parameters',
                },
              },
            },
          },
        }
      : {};
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      operationId: ids[index],
      'x-graphql-operation': route.operation,
      ...(route.operationBy
        ? { 'x-graphql-operation-by': { field: route.operationBy.field, operations: route.operationBy.operations } }
        : {}),
      summary: route.summary,
      ...(description(route) ? { description: description(route) } : {}),
      ...access(route)?.extension,
      tags: [route.tag],
      parameters,
      ...(body || route.upload
        ? {
            requestBody: {
              required: true,
              content: {
                ...(body ? { 'application/json': { schema: body } } : {}),
                ...(route.textBody ? Object.fromEntries(TEXT_TYPES.map((t) => [t, { schema: { type: 'string' } }])) : {}),
                ...file,
              },
            },
          }
        : {}),
      responses: {
        [String(route.status ?? 200)]: {
          description: 'Success',
          headers: {
            ...RATE_LIMIT_HEADERS,
            ...(takesIdempotencyKey(route.method, route.path)
              ? { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } }
              : {}),
          },
          content: { 'application/json': { schema: success } },
        },
        ...Object.fromEntries(errorCodes.map((s) => [String(s), { $ref: `#/components/responses/E${s}` }])),
      },
      security: route.access === 'public' ? [] : [{ bearerAuth: [] }, { apiKey: [] }],
    };
  }

  for (const hook of webhooks) {
    paths[hook.path] ??= {};
    paths[hook.path].post = {
      operationId: `ReceiveWebhook${pascal(hook.provider)}`,
      summary: hook.summary,
      description: `Signed by the provider: ${hook.signature}. Must arrive over HTTPS. Acknowledged with 200 at once; processed on a queue.`,
      tags: ['Inbound webhooks'],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: {
        '200': {
          description: 'Received (or a repeated delivery, `duplicate: true`)',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['success', 'data'],
                properties: {
                  success: { type: 'boolean', enum: [true] },
                  data: {
                    type: 'object',
                    required: ['received'],
                    properties: {
                      received: { type: 'boolean', enum: [true] },
                      duplicate: { type: 'boolean', description: 'Present and true when this delivery was received before' },
                      delivery_id: { type: 'string', format: 'uuid' },
                    },
                  },
                },
              },
            },
          },
        },
        '400': { $ref: '#/components/responses/E400' },
        '401': { $ref: '#/components/responses/E401' },
        '403': { $ref: '#/components/responses/E403' },
      },
      security: [],
    };
  }
  paths['/health'] = {
    get: {
      operationId: 'GetHealth',
      summary: 'Process is up',
      description: 'Answers while the process runs, whatever its dependencies (a liveness probe).',
      tags: ['Operations'],
      security: [],
      responses: {
        '200': {
          description: 'Up',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['success', 'data'],
                properties: {
                  success: { type: 'boolean', enum: [true] },
                  data: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } },
                },
              },
            },
          },
        },
      },
    },
  };
  paths['/ready'] = {
    get: {
      operationId: 'GetReady',
      summary: 'PostgreSQL and Redis reachable, with latencies',
      description: 'A readiness probe: every dependency is checked (within 2 s each); in split mode the subgraphs too.',
      tags: ['Operations'],
      security: [],
      responses: {
        '200': {
          description: 'Ready',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['success', 'data'],
                properties: {
                  success: { type: 'boolean', enum: [true] },
                  data: {
                    type: 'object',
                    required: ['status', 'checks'],
                    properties: { status: { type: 'string', enum: ['ready'] }, checks: { $ref: '#/components/schemas/ReadinessChecks' } },
                  },
                },
              },
            },
          },
        },
        '503': {
          description: 'SERVICE_UNAVAILABLE: a dependency is down; the checks say which',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['success', 'error'],
                properties: {
                  success: { type: 'boolean', enum: [false] },
                  error: {
                    type: 'object',
                    required: ['code', 'message', 'checks'],
                    properties: {
                      code: { type: 'string', enum: ['SERVICE_UNAVAILABLE'] },
                      message: { type: 'string' },
                      checks: { $ref: '#/components/schemas/ReadinessChecks' },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };

  const errorResponse = (status: number, description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  });
  return {
    openapi: '3.0.3',
    info,
    servers,
    paths,
    components: {
      headers: {
        RateLimitLimit: { description: 'Requests allowed in the current window', schema: { type: 'integer' } },
        RateLimitRemaining: { description: 'Requests left in the current window', schema: { type: 'integer' } },
        RateLimitReset: { description: 'Seconds until the window resets', schema: { type: 'integer' } },
        RateLimitPolicy: { description: 'The limit and its window, `<limit>;w=<seconds>`', schema: { type: 'string' } },
        RetryAfter: { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
        IdempotentReplayed: {
          description: '`true` when this is the kept answer to an earlier request with the same Idempotency-Key',
          schema: { type: 'string', enum: ['true'] },
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Any unique string (1-255 visible ASCII characters, a UUID is best). A retry with the same key answers the ' +
            'first answer again (header Idempotent-Replayed: true) instead of acting twice, for IDEMPOTENCY_TTL_SECONDS ' +
            '(24 h). The same key with another method, path or body, or while the first request still runs: 409. ' +
            'Answers of 500 and above are not kept. Sign-in and developer key paths take no key (their answers carry credentials).',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'PASETO v4.public' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Developer API key, scoped' },
      },
      schemas: {
        ...components,
        PageMeta: {
          type: 'object',
          required: ['page', 'limit', 'total'],
          properties: {
            page: { type: 'integer', minimum: 1 },
            limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
            total: { type: 'integer', minimum: 0, description: 'Total number of items across all pages' },
            total_is_estimate: {
              type: 'boolean',
              enum: [true],
              description:
                "Present only when `total` is an estimate. Lists that grow with an organization (its patients, patient search) count matches exactly up to 1,000; past that, `total` is the database's estimate (never below 1,001)",
            },
          },
        },
        ReadinessChecks: {
          type: 'object',
          description: 'One check per dependency (postgres, redis; subgraph_<name> in split mode)',
          additionalProperties: {
            type: 'object',
            required: ['ok', 'latency_ms'],
            properties: {
              ok: { type: 'boolean' },
              latency_ms: { type: 'number', minimum: 0 },
              error: { type: 'string', description: 'Why the check failed' },
            },
          },
        },
        ErrorEnvelope: {
          type: 'object',
          required: ['success', 'error'],
          properties: {
            success: { type: 'boolean', enum: [false] },
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
                message: { type: 'string' },
                details: {
                  type: 'array',
                  description: 'For VALIDATION_ERROR: each offending field (snake_case path) and what is wrong with it',
                  items: {
                    type: 'object',
                    required: ['field', 'message'],
                    properties: { field: { type: 'string' }, message: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      },
      responses: {
        E400: errorResponse(400, 'VALIDATION_ERROR: malformed JSON or invalid fields, named in the message and details'),
        E401: errorResponse(401, 'UNAUTHORIZED: token missing, invalid or expired'),
        E403: errorResponse(403, 'FORBIDDEN: authenticated but not allowed'),
        E404: errorResponse(404, 'NOT_FOUND: no such record, or not visible to the caller'),
        E409: errorResponse(409, 'CONFLICT: duplicate or illegal state transition'),
        E413: errorResponse(413, 'PAYLOAD_TOO_LARGE: the file is larger than allowed'),
        E415: errorResponse(415, 'UNSUPPORTED_MEDIA_TYPE: a file type that is not accepted here'),
        E429: {
          ...errorResponse(429, 'RATE_LIMITED: retry after the Retry-After header'),
          headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' }, ...RATE_LIMIT_HEADERS },
        },
        E500: errorResponse(500, 'INTERNAL_ERROR'),
        E503: {
          ...errorResponse(
            503,
            'SERVICE_UNAVAILABLE: a part of the platform this call needs is down or restarting (split mode: its subgraph), ' +
              'or the database connection dropped during a write (which may or may not have been saved); retry after the Retry-After header',
          ),
          headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
        },
      },
    },
  };
}
