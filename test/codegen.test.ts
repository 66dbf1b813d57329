import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildSchema, isObjectType, Kind, parse, print, TypeInfo, visit, visitWithTypeInfo, type DefinitionNode } from 'graphql';
import { SCHEMA_DIR } from '../shared/paths';

/**
 * A frontend's typed client, made the way docs/graphql.md tells frontends to: GraphQL Code Generator over the
 * published schema (schema/public.graphql) and real operations (every document in schema/operations/ that the
 * public schema serves), with the `typescript` and `typescript-operations` plugins, offline; then compiled with
 * `tsc --strict`. A schema change that breaks generated clients fails here.
 */

const OPERATIONS = join(SCHEMA_DIR, 'operations');

/**
 * The operations and fragments of schema/operations/ that the public schema serves, written under `to`: everything
 * but what only the REST adapter can run, the definitions selecting an internal (`@inaccessible`) field (the upload
 * steps, the decimal twin of a money field: `totalAmount: totalAmountDecimal`) and those spreading such a fragment.
 */
function publicDocuments(files: string[], to: string): string[] {
  const supergraph = buildSchema(readFileSync(join(SCHEMA_DIR, 'supergraph.graphql'), 'utf8'), { assumeValidSDL: true });
  const internalFields = new Set<string>();
  for (const type of Object.values(supergraph.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.astNode?.directives?.some((d) => d.name.value === 'inaccessible')) internalFields.add(`${type.name}.${field.name}`);
    }
  }
  const docs = files.map((file) => ({ file, definitions: parse(readFileSync(file, 'utf8')).definitions }));
  const selectsInternal = (definition: DefinitionNode) => {
    const info = new TypeInfo(supergraph);
    let found = false;
    visit(
      definition,
      visitWithTypeInfo(info, {
        Field(node) {
          const parent = info.getParentType();
          if (parent && internalFields.has(`${parent.name}.${node.name.value}`)) found = true;
        },
      }),
    );
    return found;
  };
  const internal = new Set<DefinitionNode>(docs.flatMap((d) => d.definitions.filter(selectsInternal)));
  // A definition spreading an internal fragment is internal too, until nothing more changes.
  for (let grew = true; grew;) {
    grew = false;
    const fragments = new Set([...internal].flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [d.name.value] : [])));
    for (const definition of docs.flatMap((d) => d.definitions)) {
      if (internal.has(definition)) continue;
      let spreads = false;
      visit(definition, { FragmentSpread: (node) => void (fragments.has(node.name.value) && (spreads = true)) });
      if (spreads) grew = Boolean(internal.add(definition));
    }
  }
  return docs.flatMap(({ file, definitions }) => {
    const kept = definitions.filter((d) => !internal.has(d));
    if (!kept.length) return [];
    const out = join(to, file.slice(OPERATIONS.length + 1));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, print({ kind: Kind.DOCUMENT, definitions: kept }));
    return [out];
  });
}

/** How the platform's scalars arrive in JSON. */
const SCALARS = {
  DateTimeISO: 'string',
  LocalDate: 'string',
  LocalTime: 'string',
  Decimal: 'string',
  JSON: 'unknown',
  JSONObject: 'Record<string, unknown>',
};

/** Runs a command; its output is the failure message when it fails. */
function run(command: string, args: string[]): void {
  try {
    // From the repository, where the generator finds its plugins.
    execFileSync(command, args, { encoding: 'utf8', stdio: 'pipe', cwd: join(__dirname, '..') });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`${args[0]} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'codegen-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('typed clients generated from the published schema', () => {
  it('generates types for the operations in schema/operations/ and they compile with tsc --strict', async () => {
    const all = readdirSync(OPERATIONS, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.graphql'))
      .map((f) => join(OPERATIONS, f));
    const documents = publicDocuments(all, join(dir, 'operations'));
    expect(documents.length).toBeGreaterThan(100);

    // The generator's own command line, as a frontend's build runs it, with its configuration in a file.
    const schemaTypes = join(dir, 'schema-types');
    const config = join(dir, 'codegen.json');
    writeFileSync(
      config,
      JSON.stringify({
        schema: join(SCHEMA_DIR, 'public.graphql'),
        documents,
        generates: {
          [`${schemaTypes}.ts`]: { plugins: ['typescript'], config: { scalars: SCALARS, enumsAsTypes: true } },
          [join(dir, 'operations.ts')]: {
            plugins: ['typescript-operations'],
            config: { scalars: SCALARS, importSchemaTypesFrom: schemaTypes },
          },
        },
      }),
    );
    const root = join(__dirname, '..');
    run(process.execPath, [join(root, 'node_modules', '@graphql-codegen', 'cli', 'cjs', 'bin.js'), '--config', config, '--silent']);
    expect(existsSync(`${schemaTypes}.ts`) && existsSync(join(dir, 'operations.ts'))).toBe(true);

    // A frontend's use of what was generated: a query's result and a mutation's variables.
    writeFileSync(
      join(dir, 'use.ts'),
      [
        "import type { VitalQuery, RecordVitalMutationVariables } from './operations';",
        "type VitalId = NonNullable<VitalQuery['vital']>['id'];",
        "export const id: VitalId = 'a-vital-id';",
        "export type Input = RecordVitalMutationVariables['input'];",
        '',
      ].join('\n'),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    run(process.execPath, [
      tsc,
      '--strict',
      '--noEmit',
      '--skipLibCheck',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      join(dir, 'use.ts'),
    ]);
  }, 600_000);
});
