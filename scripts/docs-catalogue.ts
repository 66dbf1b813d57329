/**
 * The generated parts of docs/: the event catalogue (docs/events.md, between `topics` markers) and the module list
 * (docs/modules.md, between `modules` markers), both from the modules' manifests. `npm run docs` writes them; a test
 * fails when the checked-in pages differ.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { WEBHOOK_TOPICS, type TopicDefinition } from '../shared/events';
import type { SubgraphDefinition } from '../shared/subgraph';

const code = (s: string) => `\`${s}\``;

/** A payload field's type in words: `uuid`, `date-time`, `string[]`, `a \| b`; `?` optional, `\| null` nullable. */
function typeOf(t: z.ZodType): string {
  const def = (t as unknown as { def: { type: string; innerType?: z.ZodType; element?: z.ZodType; entries?: Record<string, string> } }).def;
  const format = (t as unknown as { format?: string }).format;
  switch (def.type) {
    case 'nullable':
      return `${typeOf(def.innerType!)} \\| null`;
    case 'optional':
      return `${typeOf(def.innerType!)}?`;
    case 'array':
      return `${typeOf(def.element!)}[]`;
    case 'enum':
      return Object.values(def.entries ?? {}).join(' \\| ');
    case 'number':
      return format === 'safeint' ? 'integer' : 'number';
    case 'string':
      return format ?? 'string';
    default:
      return def.type;
  }
}

function payloadOf(topic: TopicDefinition): string {
  return Object.entries(topic.payload.shape)
    .map(([name, t]) => `${code(name)} ${typeOf(t as z.ZodType)}`)
    .join(', ');
}

export function renderTopics(subgraphs: readonly SubgraphDefinition[]): string {
  const consumers = subgraphs.flatMap((s) =>
    s.modules.flatMap((m) => (m.consumers ?? []).map((c) => ({ consumer: c, where: `${s.name}/${m.name}` }))),
  );
  const emitted = [
    ...subgraphs.flatMap((s) => s.modules.flatMap((m) => (m.topics ?? []).map((topic) => ({ topic, where: `${s.name}/${m.name}` })))),
    ...WEBHOOK_TOPICS.map((topic) => ({ topic, where: 'platform (webhook inbox)' })),
  ];
  const rows = emitted.map(({ topic, where }) => {
    const by = consumers.filter((c) => c.consumer.topics.includes(topic.name));
    const consumed = by.length ? by.map((c) => `${code(c.consumer.name)} (${c.where}) ${c.consumer.description}`).join('; ') : '—';
    return `| ${code(topic.name)} | ${where} | ${topic.emittedWhen} | ${payloadOf(topic)} | ${consumed} |`;
  });
  return ['| Topic | Emitted by | Emitted when | Payload | Consumers |', '|---|---|---|---|---|', ...rows].join('\n');
}

export function renderModules(subgraphs: readonly SubgraphDefinition[], root: string): string {
  const rows = subgraphs.flatMap((s) =>
    s.modules.map((m) => {
      const routes = existsSync(join(root, 'rest-adapter', 'routes', `${m.name}.ts`)) ? code(`rest-adapter/routes/${m.name}.ts`) : '—';
      const parts = [
        m.entities?.length ? `${m.entities.length} entities` : '',
        m.consumers?.length ? `consumers ${m.consumers.map((c) => code(c.name)).join(', ')}` : '',
        m.topics?.length ? `emits ${m.topics.map((t) => code(t.name)).join(', ')}` : '',
        m.jobs?.length ? `jobs ${m.jobs.map((j) => code(j.name)).join(', ')}` : '',
      ].filter(Boolean);
      return `| ${code(`subgraphs/${s.name}/${m.name}`)} | ${m.description} | ${routes} | ${parts.join('; ') || '—'} |`;
    }),
  );
  return ['| Module | What it keeps and does | REST routes | Entities, events, jobs |', '|---|---|---|---|', ...rows].join('\n');
}

/** Replaces what stands between `<!-- name:start -->` and `<!-- name:end -->` in a page. */
export function replaceBetween(page: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const a = page.indexOf(start);
  const b = page.indexOf(end);
  if (a < 0 || b < a) throw new Error(`the page has no ${start} ... ${end} markers`);
  return `${page.slice(0, a + start.length)}\n${content}\n${page.slice(b)}`;
}
