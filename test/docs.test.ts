import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ORG_ROLES, PERMISSIONS, PLATFORM_PERMISSIONS } from '../shared/permissions';

const ROOT = join(__dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
/** The README and every page under docs/, as paths from the repository root. */
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The rows of a page's tables whose first cell is a code span: `| \`name\` | cell | cell |`. */
function rows(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const m = /^\| `([a-z:-]+)` \|(.*)\|$/.exec(line);
    if (m)
      out.set(
        m[1],
        m[2].split('|').map((c) => c.trim()),
      );
  }
  return out;
}

const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort();

/** A page without its fenced code blocks, so examples are not taken for headings or links. */
const unfenced = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
/** A page's prose: code blocks and code spans removed. */
const prose = (text: string) => unfenced(text).replace(/`[^`\n]*`/g, '');

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of unfenced(text).matchAll(/^#{1,6} +(.+?) *$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

describe('docs', () => {
  it('prints the permissions table as the code has it', () => {
    const table = rows(read('docs/permissions.md'));
    for (const [name, { roles, scope }] of Object.entries(PERMISSIONS)) {
      const row = table.get(name);
      expect({ name, row: !!row }).toEqual({ name, row: true });
      const [rolesCell, scopeCell] = row!;
      const expected = roles.length === ORG_ROLES.length ? 'every member' : [...roles].sort();
      expect({ name, roles: rolesCell === 'every member' ? rolesCell : codes(rolesCell) }).toEqual({ name, roles: expected });
      expect({ name, scope: scopeCell.startsWith('none') ? null : codes(scopeCell)[0] }).toEqual({ name, scope });
    }
    for (const [name, roles] of Object.entries(PLATFORM_PERMISSIONS)) {
      expect({ name, roles: codes(table.get(name)?.[0] ?? '') }).toEqual({ name, roles: [...roles].sort() });
    }
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const [, target] of prose(read(page)).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // absolute URLs are not ours to check
        const [path, anchor] = target.split('#');
        const file = path ? relative(ROOT, join(ROOT, dirname(page), decodeURI(path))) : page;
        if (!existsSync(join(ROOT, file))) broken.push(`${page}: ${target} (no such file)`);
        else if (anchor && (statSync(join(ROOT, file)).isDirectory() || !anchors(read(file)).has(anchor))) {
          broken.push(`${page}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('keeps the README a front door: under 200 lines, with the two quick start commands', () => {
    const readme = read('README.md');
    expect(readme.trimEnd().split('\n').length).toBeLessThan(200);
    // CI and other tooling read the test command from here.
    expect(readme).toContain('```sh\nnpm install && npm start\n```');
    expect(readme).toContain('```sh\nnpm install && npm test\n```');
  });
});
