import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeGraph, internalSupergraph } from '../gateway/composition';
import { SUBGRAPHS } from '../subgraphs';
import { SCHEMA_DIR } from '../shared/paths';

describe('supergraph composition', () => {
  it('matches the checked-in schema files (run `npm run compose` after changing a subgraph)', async () => {
    const graph = await composeGraph(SUBGRAPHS);
    expect(readFileSync(join(SCHEMA_DIR, 'supergraph.graphql'), 'utf8')).toBe(graph.supergraphSdl.trimEnd() + '\n');
    expect(readFileSync(join(SCHEMA_DIR, 'public.graphql'), 'utf8')).toBe(graph.publicSdl.trimEnd() + '\n');
    for (const s of graph.subgraphs) {
      expect([s.name, readFileSync(join(SCHEMA_DIR, `${s.name}.graphql`), 'utf8')]).toEqual([s.name, s.sdl.trimEnd() + '\n']);
    }
  });

  it("keeps @inaccessible fields out of the public schema and in the adapters' supergraph", async () => {
    const { supergraphSdl, publicSdl } = await composeGraph(SUBGRAPHS);
    expect(supergraphSdl).toMatch(/fhirRead\([^]*?\): JSONObject @inaccessible/);
    expect(publicSdl).not.toMatch(/fhirRead|join__|link__|_entities|_Service/);
    const internal = internalSupergraph(supergraphSdl);
    // Only the directive's definition is left; no field carries it.
    expect(internal.match(/@inaccessible/g)).toHaveLength(1);
    expect(internal).toMatch(/fhirRead/);
  });

  it('puts each entity with its owner and lets others refer to it by key', async () => {
    const { supergraphSdl } = await composeGraph(SUBGRAPHS);
    // The owner of patients and the subgraphs extending it (revenue's invoices, org's appointments and admissions).
    const patient = /type Patient\s+((?:@join__type\([^)]*\)\s+)+)\{/.exec(supergraphSdl)?.[1] ?? '';
    expect(patient).toContain('@join__type(graph: CLINICAL, key: "id")\n');
    expect(patient).toContain('@join__type(graph: REVENUE, key: "id")\n');
    expect(patient).toContain('@join__type(graph: ORG, key: "id")\n');
    expect(supergraphSdl).toMatch(
      /invoices\(\s*"""[^"]*"""\s*first: Int! = 20\s*\): \[Invoice!\] @join__field\(graph: REVENUE, requires: "userId organizationId"\)/,
    );
    // The clinical subgraph extends organizations with their patients and critical results.
    const organization = /type Organization\s+((?:@join__type\([^)]*\)\s+)+)\{/.exec(supergraphSdl)?.[1] ?? '';
    expect(organization).toContain('@join__type(graph: CLINICAL, key: "id")\n');
    expect(organization).toContain('@join__type(graph: ORG, key: "id")\n');
    expect(supergraphSdl).toMatch(
      /clinicalNotes\([^)]*\): ClinicalNoteConnection @join__field\(graph: CLINICAL, requires: "patientId organizationId"\)/,
    );
  });
});
