/**
 * Writes a migration for one subgraph from the difference between its entities and its checked-in migrations:
 *   npm run migration:create -- <clinical|org|revenue> [--blank]
 * It applies the existing migrations to a scratch database, diffs, writes the file and registers it in the
 * subgraph's migrations/index.ts. Review the SQL before committing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { config } from '../shared/config';
import { migrate, openOrm } from '../shared/db';
import { SUBGRAPHS } from '../subgraphs';

async function main() {
  const name = process.argv[2];
  const blank = process.argv.includes('--blank');
  const def = SUBGRAPHS.find((s) => s.name === name);
  if (!def) throw new Error(`usage: migration:create <${SUBGRAPHS.map((s) => s.name).join('|')}> [--blank]`);
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
      const dir = join(process.cwd(), 'subgraphs', def.name, 'migrations');
      const result = await orm.getMigrator().createMigration(dir, blank);
      if (!result.fileName) {
        console.log('no changes: entities match the migrations');
        return;
      }
      const className = result.fileName.replace(/\.ts$/, '');
      const indexPath = join(dir, 'index.ts');
      let index = readFileSync(indexPath, 'utf8');
      const close = index.lastIndexOf('];');
      if (close < 0) throw new Error(`${indexPath}: cannot find the end of the migrations list`);
      index = index.slice(0, close) + `  ${className},\n` + index.slice(close);
      index = index.replace(/(import type \{ Migration \} from '@mikro-orm\/migrations';\n)/, `$1import { ${className} } from './${className}';\n`);
      writeFileSync(indexPath, index);
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
