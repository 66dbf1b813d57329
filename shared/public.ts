/**
 * Root fields anyone may call without signing in (login, public doctor search, public booking, ...). Every other
 * root field answers an anonymous caller 401 before it looks at the input, so nobody learns from validation
 * messages what a protected operation takes. Root field names are unique across the graph, so their names are the
 * registry; the REST route table marks the same operations `access: 'public'` (a test keeps the two in step).
 */
export const PUBLIC_ROOT_FIELDS = new Set<string>();

/** Marks a resolver method (a root query or mutation, named like the method) as open to anonymous callers. */
export function Public(): MethodDecorator {
  return (_target, key) => {
    PUBLIC_ROOT_FIELDS.add(String(key));
  };
}
