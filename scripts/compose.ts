/**
 * Regenerates schema/{org,clinical,revenue}.graphql, schema/supergraph.graphql and the public schema clients generate
 * code from (schema/public.graphql) from the subgraphs' code.
 * A test fails when the checked-in files differ from what this produces: run `npm run compose` and commit.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeGraph } from '../gateway/composition';
import { SCHEMA_DIR } from '../shared/paths';
import { SUBGRAPHS } from '../subgraphs';

async function main() {
  const graph = await composeGraph(SUBGRAPHS);
  const dir = SCHEMA_DIR;
  for (const s of graph.subgraphs) writeFileSync(join(dir, `${s.name}.graphql`), s.sdl.trimEnd() + '\n');
  writeFileSync(join(dir, 'supergraph.graphql'), graph.supergraphSdl.trimEnd() + '\n');
  writeFileSync(join(dir, 'public.graphql'), graph.publicSdl.trimEnd() + '\n');
  console.log(`composed ${graph.subgraphs.map((s) => s.name).join(', ')} into ${join(dir, 'supergraph.graphql')}`);
}

main().catch((err) => {
  console.error(err.message ?? err);
  process.exit(1);
});
