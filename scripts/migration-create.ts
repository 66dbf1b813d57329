/**
 * Writes a migration from the difference between the entities and the checked-in migrations:
 *   npm run migration:create -- <subgraph> [<module>] [--blank]
 *   npm run migration:create -- platform [--blank]        (the workers' own schema)
 * It applies the existing migrations to a scratch database, diffs, and writes the file into the module's
 * `migrations/` folder (or the subgraph's, or workers/store/migrations), where it is found by name: nothing to
 * register. Review the SQL before committing.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { config } from '../shared/config';
import { migrate, openOrm, type OrmDefinition } from '../shared/db';
import { SUBGRAPHS } from '../subgraphs';
import { PLATFORM_STORE } from '../workers/store';

async function main() {
  const [name, second] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const blank = process.argv.includes('--blank');
  const def: OrmDefinition | undefined = name === 'platform' ? PLATFORM_STORE : SUBGRAPHS.find((s) => s.name === name);
  if (!def) throw new Error(`usage: migration:create <${[...SUBGRAPHS.map((s) => s.name), 'platform'].join('|')}> [<module>] [--blank]`);
  const subgraph = SUBGRAPHS.find((s) => s.name === name);
  if (second && !subgraph?.modules.some((m) => m.name === second)) throw new Error(`${name} has no module ${second}`);
  const dir =
    name === 'platform'
      ? join(process.cwd(), 'workers', 'store', 'migrations')
      : join(process.cwd(), 'subgraphs', name, ...(second ? [second] : []), 'migrations');
  const base = new URL(config().DATABASE_URL);
  const scratch = `ccp_migration_${process.pid}`;
  const admin = new URL(base.toString());
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`create database ${scratch}`);
  const url = new URL(base.toString());
  url.pathname = `/${scratch}`;
  try {
    const orm = await openOrm(def, url.toString());
    try {
      await migrate(orm, def.name);
      mkdirSync(dir, { recursive: true });
      const result = await orm.getMigrator().createMigration(dir, blank);
      if (!result.fileName) {
        console.log('no changes: entities match the migrations');
        return;
      }
      console.log(`wrote ${join(dir, result.fileName)}`);
      for (const line of result.diff.up) console.log('  ' + line);
    } finally {
      await orm.close();
    }
  } finally {
    await client.query(`drop database if exists ${scratch}`);
    await client.end();
  }
}

main().catch((err) => {
  console.error(err.message ?? err);
  process.exit(1);
});
