/**
 * The shape of every route table (rest-adapter/routes/<module>.ts). A route maps one documented REST path to one
 * GraphQL operation under schema/operations/. Variables are filled by name, in this order:
 *   `$input`                      the whole JSON body
 *   a variable named like a path parameter (`:org_id` -> `$orgId`)
 *   a body field (POST, PUT, PATCH, DELETE) or a query parameter, snake_case on the wire (`$pageSize` <- `page_size`)
 * The result's single root field becomes `data`; a `...Page` result becomes the list envelope with `meta`.
 */
/** Plain-text bodies a route may take instead of JSON (it declares `textBody`; others answer 415). */
export const TEXT_TYPES = ['text/plain', 'application/hl7-v2', 'x-application/hl7-v2+er7'];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call a route, for the OpenAPI document. The owning subgraph enforces it. */
export type Access = 'public' | 'authenticated' | 'admin' | 'super-admin';

export interface RouteSpec {
  method: HttpMethod;
  path: string;
  /** Name of the operation document under schema/operations/. */
  operation: string;
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
}

export interface RouteTable {
  /** Module name, the OpenAPI tag. */
  tag: string;
  routes: RouteSpec[];
}

export function defineRoutes(tag: string, routes: RouteSpec[]): RouteTable {
  return { tag, routes };
}
