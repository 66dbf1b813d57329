/**
 * The shape of every route table (rest-adapter/routes/<module>.ts). A route maps one documented REST path to one
 * GraphQL operation under schema/operations/. Variables are filled by name, in this order:
 *   `$input`                      the whole JSON body
 *   a variable named like a path parameter (`:org_id` -> `$orgId`)
 *   a body field (POST, PUT, PATCH, DELETE) or a query parameter, snake_case on the wire (`$pageSize` <- `page_size`)
 * The result's single root field becomes `data`; a `...Page` result becomes the list envelope with `meta`.
 */
/** Plain-text bodies a route may take instead of JSON (it declares `textBody`; others answer 415). */
export const TEXT_TYPES = ['text/plain', 'text/csv', 'application/hl7-v2', 'x-application/hl7-v2+er7'];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Whether a route needs a signed-in caller (the default) or is public, for the edge's 401 and the OpenAPI document.
 * The owning subgraph enforces it. Routes only platform roles may call are not marked here: the operation's root
 * field declares its platform permission in the graph (shared/requires-permission.ts), and the route reads it.
 */
export type Access = 'public' | 'authenticated';

export interface RouteSpec {
  method: HttpMethod;
  path: string;
  /** Name of the operation document under schema/operations/. */
  operation: string;
  /**
   * The path's operationId in OpenAPI when the operation's name is not it: a route choosing its operation by a body
   * field (required there), or one whose GraphQL mutation was renamed (the REST contract and its clients' generated
   * names stay).
   */
  operationId?: string;
  summary: string;
  description?: string;
  /** Success status: 201 for creates, 200 (the default) for everything else. */
  status?: 200 | 201 | 202;
  access?: Access;
  /**
   * The variable that receives a plain-text body (`text/plain`, `application/hl7-v2`), for routes that take a raw
   * message such as HL7v2. The same route also accepts JSON, with the text in that variable's field.
   */
  textBody?: string;
  /**
   * Other names REST clients send for a body field, where SPEC shows none (`value` for `value_quantity`): wire name
   * → the field's wire name, or a function of the value choosing it, or `{ to, value }` where the other spelling also
   * says it in other words (`approved: true` for `decision: approve`). A wire spelling only; GraphQL keeps one name.
   */
  synonyms?: Record<string, Synonym>;
  /**
   * A path that takes the state wanted (`PATCH .../status {status}`) where the graph has one mutation per transition:
   * the body field's value chooses the operation run (`operation` is then the one documenting the answer).
   */
  operationBy?: OperationBy;
  /**
   * A file upload (audio): the body is streamed to object storage, never parsed or held whole (rest-adapter/upload.ts).
   * The subgraph keeps the rules: `reserve` authorizes and answers where the file goes and how large it may be,
   * `complete` records what was stored, and its result is the answer. `operation` names the document for other
   * bodies when `json` is set (they are refused with 415 otherwise), else the same as `complete`.
   */
  upload?: UploadSpec;
  /**
   * `false` for standards whose clients expect the standard's own JSON (CDS Hooks): the success answer is the root
   * field's value itself, without `{success, data}`, with the GraphQL field names (the standard's camelCase) and
   * without null fields (absent, as such standards' schemas expect). Errors keep the error envelope.
   */
  envelope?: false;
}

/** What a synonym stands for: a field's wire name, chosen by the value, or with the value put in the field's words. */
export type Synonym = string | ((value: unknown) => string) | { to: string; value: (value: unknown) => unknown };

/** A synonym of an enum field under its own name, taking the value in any letter case (the enum's values are lower case). */
export const anyCase = (field: string): Synonym => ({ to: field, value: (v) => (typeof v === 'string' ? v.toLowerCase() : v) });

/**
 * A synonym of an enum field under its own name, taking a value written with hyphens (`mobile-money-a`) for the
 * enum's value written with underscores (`mobile_money_a`): GraphQL enum values cannot hold a hyphen.
 */
export const hyphenated = (field: string): Synonym => ({ to: field, value: (v) => (typeof v === 'string' ? v.replace(/-/g, '_') : v) });

export interface OperationBy {
  /** The body field (wire name) whose value chooses the operation. */
  field: string;
  /** The GraphQL enum the field's values come from: a value missing or outside it is a 400 naming the field. */
  type: string;
  /**
   * Value → the operation run for it; these values are the ones documented. Several where different transitions
   * lead to the state depending on where the record is (`active`: activate a draft, resume one on hold): the first
   * whose transition the record's state allows runs (a 409 ILLEGAL_TRANSITION moves on to the next, nothing changed);
   * when none does, the first one's answer.
   */
  operations: Record<string, string | string[]>;
  /**
   * Values of the enum that no transition reaches (the state every record starts in), with the answer they get:
   * a 400 naming the field, or a 409.
   */
  refused?: Record<string, { code: 'VALIDATION_ERROR' | 'CONFLICT'; message: string }>;
}

export interface UploadSpec {
  /**
   * A mutation answering `{ key, maxBytes }`. Variables by name: the path's, the query's, multipart text fields
   * sent before the file, `contentType` (the body's or the file part's media type, without parameters) and
   * `declaredBytes` (Content-Length of a raw body, null otherwise).
   */
  reserve: string;
  /** A mutation; variables as `reserve`'s, with `key`, `contentType`, `sizeBytes` and `checksumSha256` (hex SHA-256). */
  complete: string;
  /** JSON bodies go to the route's `operation` (an upload route that also takes, say, text). */
  json?: boolean;
}

export interface RouteTable {
  /** The OpenAPI tag. */
  tag: string;
  /** The module the table belongs to: its file name, which is also the module's folder (set when tables load). */
  module?: string;
  routes: RouteSpec[];
}

export function defineRoutes(tag: string, routes: RouteSpec[]): RouteTable {
  return { tag, routes };
}
