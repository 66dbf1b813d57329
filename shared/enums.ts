import { registerEnumType } from 'type-graphql';

/** The GraphQL enum of a closed list of wire values: each value is its own name, so the wire keeps its spelling. */
export type EnumOf<V extends string> = { readonly [K in V]: K };

/**
 * Registers the GraphQL enum `name` of `values` (an `as const` list the service already checks against) and answers
 * the enum object for `@Field(() => X)`. The values stay plain strings in TypeScript, so code comparing or storing
 * them needs no change.
 */
export function enumOf<const V extends string>(values: readonly V[], name: string, description: string): EnumOf<V> {
  const e = Object.fromEntries(values.map((v) => [v, v])) as EnumOf<V>;
  registerEnumType(e, { name, description });
  return e;
}
