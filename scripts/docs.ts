/** `npm run docs`: regenerates the catalogue parts of docs/ from the modules' manifests (scripts/docs-catalogue.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUBGRAPHS } from '../subgraphs';
import { renderModules, renderTopics, replaceBetween } from './docs-catalogue';

const root = join(__dirname, '..', '..');
const pages: [string, string, string][] = [
  ['docs/events.md', 'topics', renderTopics(SUBGRAPHS)],
  ['docs/modules.md', 'modules', renderModules(SUBGRAPHS, root)],
];
for (const [file, marker, content] of pages) {
  const path = join(root, file);
  writeFileSync(path, replaceBetween(readFileSync(path, 'utf8'), marker, content));
  console.log(`wrote ${file}`);
}
