/**
 * `npm run openapi`: writes the OpenAPI document the platform serves at `/api/openapi.json` to a file (default
 * `dist/openapi.json`), without a database or Redis: the graph's API schema comes from the checked-in supergraph.
 * `npm run lint:openapi` lints that file with Redocly's recommended rules (redocly.yaml).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { compileRestRoutes, openApiDocument } from '../bin/platform';
import { startGateway } from '../gateway/server';

/** The document, generated as the platform generates it at start (served from `publicUrl`, by default PUBLIC_URL). */
export async function generateOpenApi(publicUrl?: string): Promise<ReturnType<typeof openApiDocument>> {
  const gateway = await startGateway();
  try {
    return openApiDocument(compileRestRoutes(gateway), publicUrl);
  } finally {
    await gateway.stop();
  }
}

if (require.main === module) {
  const out = resolve(process.argv[2] ?? 'dist/openapi.json');
  generateOpenApi()
    .then((doc) => {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, JSON.stringify(doc, null, 2) + '\n');
      console.log(`wrote ${out}`);
      process.exit(0);
    })
    .catch((err) => {
      console.error(err.message ?? err);
      process.exit(1);
    });
}
