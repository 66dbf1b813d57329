import { Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { OperationExecutor } from '../../../../shared/prepared-operation';
import type { Authenticator } from '../../../../shared/viewer';
import { fhirApi } from './fhir-api';
import { smartConfiguration, smartServer } from './smart-server';

/**
 * The interoperability standards' own HTTP paths, mounted by the composition root beside the REST adapter: SMART
 * discovery at `/.well-known/smart-configuration` (public), the SMART authorization server under `/oauth2`, and the
 * read-only FHIR R4 API under `/fhir/R4`. They answer in their standards' formats, not the platform's envelope.
 */
export async function interopStandardsRouter(deps: {
  gateway: OperationExecutor & { schema: GraphQLSchema };
  identity: Authenticator;
}): Promise<Router> {
  const smart = smartServer();
  const r = Router();
  r.get('/.well-known/smart-configuration', (_req, res) => void res.json(smartConfiguration()));
  r.use(smart.router);
  r.use(fhirApi({ ...deps, provider: smart.provider }));
  return r;
}
