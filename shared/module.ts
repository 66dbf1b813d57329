import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Constructor, EntityClass } from '@mikro-orm/core';
import type { Migration } from '@mikro-orm/migrations';
import type { ReferenceResolver } from './context';
import type { EntityManager, MikroORM } from './db';
import type { ConsumerDefinition, TopicDefinition } from './events';

/**
 * A module is a folder inside a subgraph (`subgraphs/<subgraph>/<module>/`) whose `module.ts` exports, as default,
 * everything it contributes. The subgraph finds its modules by their folders; the module's REST routes are
 * `rest-adapter/routes/<module>.ts` and its operation documents `schema/operations/<module>/`. Adding a module
 * touches nothing else (CONTRIBUTING.md).
 */
export interface ModuleManifest {
  /** The folder's name, which is also the name of the module's route table and operations folder. */
  name: string;
  /** One sentence: what the module keeps and does (printed in docs/modules.md). */
  description: string;
  /** MikroORM entities stored in the subgraph's schema. */
  entities?: Constructor<object>[];
  /** type-graphql resolver classes. */
  resolvers?: Function[];
  /** GraphQL types no resolver signature reaches (entity stubs of other subgraphs). */
  orphanedTypes?: Function[];
  /** `__resolveReference` for the entity types this module owns. */
  references?: Record<string, ReferenceResolver>;
  /** Bus consumers whose effects live in this subgraph's database. */
  consumers?: ConsumerDefinition[];
  /** Work the platform runs on a schedule, once across all replicas. */
  jobs?: ScheduledJob[];
  /** Bus topics this module emits, with their payloads (the catalogue in docs/events.md is generated from them). */
  topics?: TopicDefinition[];
  /** What this module keeps about a patient: exported, erased and shown on the care journey (clinical only). */
  patientData?: PatientDataSource[];
  /** Runs after migrations at start (bootstrap data). */
  onStart?(runtime: ModuleRuntime): Promise<void>;
  /** Runs before the database closes (flush buffers). */
  onStop?(runtime: ModuleRuntime): Promise<void>;
}

/** A module as its subgraph found it: the manifest and the migrations under `<module>/migrations/`. */
export interface LoadedModule extends ModuleManifest {
  migrations: Constructor<Migration>[];
}

export interface ModuleRuntime {
  name: string;
  orm: MikroORM;
}

/** A job run every `everyMs` by one worker of the platform (a BullMQ job scheduler keyed by `name`). */
export interface ScheduledJob {
  /** Unique across the platform, kebab-case. */
  name: string;
  description: string;
  everyMs: number;
  run(ctx: { em: EntityManager; now: Date }): Promise<void>;
}

/** A timeline entry of the patient's care journey, from a patient data source that has one. */
export interface TimelineEntry {
  occurredAt: Date;
  kind: string;
  title: string;
  resourceType: string;
  resourceId: string;
}

export interface PatientDataSource {
  /** The export section, snake_case (`clinical_records`). */
  section: string;
  entity: EntityClass<{ id: string; patientId?: string | null }>;
  /** Rows to leave out of the export (none by default). */
  where?: Record<string, unknown>;
  /** The rows of a patient, when not simply `{ patientId }` (the audit trail's list reads name several patients). */
  ofPatient?: (patientId: string) => Record<string, unknown>;
  /**
   * How rows of this source appear on the patient's care journey, if they do: `at` names a timestamp or a
   * YYYY-MM-DD property, `where` keeps only the rows that are events (a dose given, not one planned).
   */
  timeline?: { kind: string; at: string; where?: Record<string, unknown>; title: (row: Record<string, unknown>) => string };
}

/** Declares a module; the identity function gives the manifest its type where it is written. */
export function defineModule(manifest: ModuleManifest): ModuleManifest {
  return manifest;
}

const CODE = /\.(ts|js)$/;
const isCode = (file: string) => CODE.test(file) && !file.endsWith('.d.ts') && !file.endsWith('.test.ts');

/** The file of `base` (without extension) in `dir`: compiled `.js` in dist/, `.ts` under the test runner. */
function codeFile(dir: string, base: string): string | null {
  for (const ext of ['.js', '.ts']) if (existsSync(join(dir, base + ext))) return join(dir, base);
  return null;
}

function load(path: string): Record<string, unknown> {
  // Modules are found by their folders at start, so they are loaded by path.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path) as Record<string, unknown>;
}

/** The migrations in `dir` (`MigrationYYYYMMDDhhmmss` files), in name order, which is the order they were written. */
export function discoverMigrations(dir: string): Constructor<Migration>[] {
  if (!existsSync(dir)) return [];
  const names = [
    ...new Set(
      readdirSync(dir)
        .filter((f) => /^Migration\d{14}\.(ts|js)$/.test(f))
        .map((f) => f.replace(CODE, '')),
    ),
  ].sort();
  return names.map((name) => {
    const found = load(join(dir, name))[name];
    if (typeof found !== 'function') throw new Error(`${join(dir, name)} does not export class ${name}`);
    return found as Constructor<Migration>;
  });
}

/** Every module under a subgraph's folder (each folder holding a `module.ts`), in name order. */
export function discoverModules(dir: string): LoadedModule[] {
  return readdirSync(dir)
    .sort()
    .filter((entry) => statSync(join(dir, entry)).isDirectory())
    .flatMap((entry) => {
      const file = codeFile(join(dir, entry), 'module');
      if (!file) return [];
      const manifest = load(file).default as ModuleManifest | undefined;
      if (!manifest || manifest.name !== entry) {
        throw new Error(`${file}: the default export must be the module's manifest, named "${entry}" like its folder`);
      }
      return [{ ...manifest, migrations: discoverMigrations(join(dir, entry, 'migrations')) }];
    });
}

/** The code files directly in `dir` (route tables), by base name, in name order. */
export function codeFilesIn(dir: string): string[] {
  return [
    ...new Set(
      readdirSync(dir)
        .filter(isCode)
        .map((f) => f.replace(CODE, '')),
    ),
  ].sort();
}

export { load as loadByPath };
