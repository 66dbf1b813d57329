import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ORG_ROLES, PERMISSIONS, PLATFORM_PERMISSIONS } from '../shared/permissions';

const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

/** The rows of README tables whose first cell is a code span: `| \`name\` | cell | cell |`. */
function rows(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of readme.split('\n')) {
    const m = /^\| `([a-z:-]+)` \|(.*)\|$/.exec(line);
    if (m) out.set(m[1], m[2].split('|').map((c) => c.trim()));
  }
  return out;
}

const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort();

describe('README', () => {
  it('prints the permissions table as the code has it', () => {
    const table = rows();
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
});
