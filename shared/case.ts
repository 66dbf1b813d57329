/**
 * snake_case on the wire, camelCase in GraphQL. Results are memoised: the set of field names is small and fixed.
 */
const toSnakeCache = new Map<string, string>();
const toCamelCache = new Map<string, string>();

export function snakeCase(name: string): string {
  let out = toSnakeCache.get(name);
  if (out === undefined) {
    out = name
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
      .toLowerCase();
    toSnakeCache.set(name, out);
  }
  return out;
}

export function camelCase(name: string): string {
  let out = toCamelCache.get(name);
  if (out === undefined) {
    out = name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    toCamelCache.set(name, out);
  }
  return out;
}

/** A dotted camelCase path (`input.dateOfBirth`) in snake_case (`input.date_of_birth`). */
export function snakePath(path: string): string {
  return path.split('.').map(snakeCase).join('.');
}
