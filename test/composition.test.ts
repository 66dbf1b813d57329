import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeGraph } from '../gateway/composition';
import { SUBGRAPHS } from '../subgraphs';
import { SCHEMA_DIR } from '../shared/paths';

describe('supergraph composition', () => {
  it('matches the checked-in schema files (run `npm run compose` after changing a subgraph)', async () => {
    const graph = await composeGraph(SUBGRAPHS);
    expect(readFileSync(join(SCHEMA_DIR, 'supergraph.graphql'), 'utf8')).toBe(graph.supergraphSdl.trimEnd() + '\n');
    for (const s of graph.subgraphs) {
      expect([s.name, readFileSync(join(SCHEMA_DIR, `${s.name}.graphql`), 'utf8')]).toEqual([s.name, s.sdl.trimEnd() + '\n']);
    }
  });

  it('puts each entity with its owner and lets others refer to it by key', async () => {
    const { supergraphSdl } = await composeGraph(SUBGRAPHS);
    // Other subgraphs refer to patients too (`resolvable: false`); the owner and the extension are these two.
    const patient = /type Patient\s+((?:@join__type\([^)]*\)\s+)+)\{/.exec(supergraphSdl)?.[1] ?? '';
    expect(patient).toContain('@join__type(graph: CLINICAL, key: "id")\n');
    expect(patient).toContain('@join__type(graph: REVENUE, key: "id")\n');
    expect(supergraphSdl).toMatch(/invoices: \[Invoice!\] @join__field\(graph: REVENUE, requires: "userId organizationId"\)/);
    expect(supergraphSdl).toMatch(/type Organization\s+@join__type\(graph: CLINICAL, key: "id", resolvable: false\)/);
  });
});
