import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCHEMA_DIR } from '../shared/paths';

/**
 * A frontend's typed client, made the way docs/graphql.md tells frontends to: GraphQL Code Generator over the
 * published schema (schema/public.graphql) and real operations (every document in schema/operations/ that the
 * public schema serves), with the `typescript` and `typescript-operations` plugins, offline; then compiled with
 * `tsc --strict`. A schema change that breaks generated clients fails here.
 */

const OPERATIONS = join(SCHEMA_DIR, 'operations');
/** The REST upload path's own steps: internal fields, not in the public schema. */
const ADAPTER_ONLY = /\/(ReserveRecordingAudio|CompleteRecordingAudio|ReserveDictationAudio|AddDictationAudioSegment)\.graphql$/;

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
    const documents = readdirSync(OPERATIONS, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.graphql'))
      .map((f) => join(OPERATIONS, f))
      .filter((f) => !ADAPTER_ONLY.test(f));
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
