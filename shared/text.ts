/**
 * The one rule every string from outside meets, REST and GraphQL alike, before it reaches a service, SQL or a
 * library: no NUL character (PostgreSQL cannot store one in text, and no clinical text has one) and no unpaired
 * UTF-16 surrogate (not Unicode text: it cannot be stored or sent on as UTF-8). Applied at the edge: the REST
 * adapter reads every value through it (rest-adapter/wire.ts) and the gateway checks every GraphQL variable and
 * literal (gateway/input-rules.ts).
 */
// eslint-disable-next-line no-control-regex
const NUL = /\u0000/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` is refused, or null when it is acceptable text. */
export function textProblem(text: string): string | null {
  if (NUL.test(text)) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text (it holds an unpaired surrogate)';
  return null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every `ID` of the platform is a server-assigned UUID: anything else names nothing and never reaches a query. */
export function idProblem(id: string): string | null {
  return UUID.test(id) ? null : 'must be an id (a UUID)';
}
