import { defineRoutes } from '../route';

/**
 * The interoperability paths under /api (envelope answers). The standards' own paths (`/.well-known/smart-configuration`,
 * the OAuth 2.0 authorization server under `/oauth2`, the read-only FHIR R4 API under `/fhir/R4`) answer as their
 * standards say, outside the envelope (docs/interoperability.md).
 */
export default defineRoutes('Interoperability', [
  {
    method: 'GET',
    path: '/api/fhir/cross-border/Patient/:national_id',
    operation: 'CrossBorderPatients',
    summary:
      'Cross-border patient lookup by national id (`country` KE, GH, NG, ZA, TZ, UG, RW or ET; optional `hie_endpoint` from the allowlist, `purpose_of_use`): a FHIR searchset Bundle in `data`',
  },
  {
    method: 'POST',
    path: '/api/smart/launch',
    operation: 'CreateSmartLaunch',
    summary:
      "SMART on FHIR EHR launch: `client_id`, `patient_id`, optional `encounter_id`; answers the app's `launch_url` with `iss` and `launch`",
    status: 201,
  },
]);
