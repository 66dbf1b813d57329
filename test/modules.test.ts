import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEBHOOK_TOPICS } from '../shared/events';
import { ROUTE_TABLES } from '../rest-adapter/routes';
import { renderModules, renderTopics, replaceBetween } from '../scripts/docs-catalogue';
import { SUBGRAPHS } from '../subgraphs';

const root = join(__dirname, '..');
const modules = SUBGRAPHS.flatMap((s) => s.modules.map((m) => m.name));
const operationsDir = join(root, 'schema', 'operations');

describe('modules', () => {
  it('have names unique across the platform, each its folder', () => {
    expect(new Set(modules).size).toBe(modules.length);
    for (const s of SUBGRAPHS)
      for (const m of s.modules) expect(existsSync(join(root, 'subgraphs', s.name, m.name, 'module.ts'))).toBe(true);
  });

  it('own their route tables and operation folders one to one, by name', () => {
    for (const table of ROUTE_TABLES)
      expect({ table: table.module, isModule: modules.includes(table.module!) }).toEqual({ table: table.module, isModule: true });
    const folders = readdirSync(operationsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    for (const folder of folders) expect({ folder, isModule: modules.includes(folder) }).toEqual({ folder, isModule: true });
    for (const table of ROUTE_TABLES) {
      for (const route of table.routes) {
        const file = join(operationsDir, table.module!, `${route.operation}.graphql`);
        expect({ route: `${route.method} ${route.path}`, file: existsSync(file) }).toEqual({
          route: `${route.method} ${route.path}`,
          file: true,
        });
      }
    }
  });

  it('emit declared topics under unique names, and consume only topics someone emits', () => {
    const topics = [...SUBGRAPHS.flatMap((s) => s.topics.map((t) => t.name)), ...WEBHOOK_TOPICS.map((t) => t.name)];
    expect(new Set(topics).size).toBe(topics.length);
    for (const s of SUBGRAPHS) {
      for (const c of s.consumers)
        for (const topic of c.topics)
          expect({ consumer: c.name, topic, emitted: topics.includes(topic) }).toEqual({ consumer: c.name, topic, emitted: true });
    }
  });

  it('are catalogued in docs/ as the code declares them (npm run docs)', () => {
    const events = readFileSync(join(root, 'docs', 'events.md'), 'utf8');
    expect(events).toBe(replaceBetween(events, 'topics', renderTopics(SUBGRAPHS)));
    const list = readFileSync(join(root, 'docs', 'modules.md'), 'utf8');
    expect(list).toBe(replaceBetween(list, 'modules', renderModules(SUBGRAPHS, root)));
  });
});
