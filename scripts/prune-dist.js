// Removes compiled files whose TypeScript source is gone (a renamed or deleted module), after `tsc`: modules and
// route tables are found by their files, so a stale one in dist/ would still be loaded.
const { existsSync, readdirSync, rmSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '..');
const dist = join(root, 'dist');

function prune(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      prune(path);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
      continue;
    }
    const match = /^(.*)\.js(\.map)?$/.exec(entry);
    if (!match) continue;
    const source = join(root, relative(dist, dir), `${match[1]}.ts`);
    if (!existsSync(source)) rmSync(path);
  }
}

prune(dist);
