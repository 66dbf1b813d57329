import {
  buildSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedScalarType,
  type GraphQLSchema,
} from 'graphql';

/**
 * How much of the public schema carries descriptions (docs/graphql.md, "Descriptions"). `required` lists, by kind,
 * what lacks one among what every module must describe: types, enums, root fields and their arguments.
 */
export interface DescriptionCoverage {
  counts: Record<string, { described: number; total: number }>;
  /** Lines such as `type Admission`, `enum RoomStatus`, `field Query.patient`, `arg Mutation.admitPatient(input)`. */
  required: string[];
}

const described = (x: { description?: string | null }) => !!x.description?.trim();

export function descriptionCoverage(schema: GraphQLSchema): DescriptionCoverage {
  const counts: DescriptionCoverage['counts'] = {};
  const required: string[] = [];
  const count = (kind: string, ok: boolean, missing?: string) => {
    counts[kind] ??= { described: 0, total: 0 };
    counts[kind].total++;
    if (ok) counts[kind].described++;
    else if (missing) required.push(missing);
  };
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(Boolean));
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || isSpecifiedScalarType(type)) continue;
    if (isEnumType(type)) {
      count('enums', described(type), `enum ${type.name}`);
      for (const value of type.getValues()) count('enum values', described(value));
      continue;
    }
    const root = roots.has(type as never);
    if (!root) count('types', described(type), `type ${type.name}`);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        const where = `${type.name}.${field.name}`;
        count(root ? 'root fields' : 'fields', described(field), root ? `field ${where}` : undefined);
        for (const arg of field.args)
          count(root ? 'root arguments' : 'arguments', described(arg), root ? `arg ${where}(${arg.name})` : undefined);
      }
    }
    if (isInputObjectType(type)) for (const field of Object.values(type.getFields())) count('input fields', described(field));
  }
  return { counts, required: required.sort() };
}

export function coverageOfSdl(sdl: string): DescriptionCoverage {
  return descriptionCoverage(buildSchema(sdl));
}

export function renderCoverage({ counts }: DescriptionCoverage): string {
  return Object.entries(counts)
    .map(
      ([kind, { described, total }]) =>
        `${kind.padEnd(16)} ${String(described).padStart(5)} of ${String(total).padEnd(5)} ${((100 * described) / total).toFixed(1)} %`,
    )
    .join('\n');
}

/** The file in schema/ listing the required descriptions missing from before the rule (test/descriptions.test.ts). */
export const MISSING_LIST = 'descriptions-missing.txt';

export function renderMissingList({ required }: DescriptionCoverage): string {
  const header = '# Public types, enums, root fields and root arguments still without a description: remove a line when you add it';
  return [header, ...required, ''].join('\n');
}
