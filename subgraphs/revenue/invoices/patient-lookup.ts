import { isUuid } from '../../../shared/model';
import type { PeerCaller } from '../../../shared/refs';

/** A patient as the clinical subgraph shows it to the caller: enough to tell who the patient is and where they belong. */
export interface PatientFacts {
  id: string;
  userId: string | null;
  organizationId: string | null;
}

const PATIENT_FACTS =
  'query RevenuePatientFacts($representations: [_Any!]!) { _entities(representations: $representations) { ... on Patient { id userId organizationId } } }';

/**
 * Asks the clinical subgraph about a patient, as the caller (under the clinical subgraph's access rules): null when
 * the patient does not exist or the caller may not see it. The revenue subgraph never reads clinical tables.
 */
export async function patientFacts(ctx: PeerCaller, patientId: string): Promise<PatientFacts | null> {
  if (!isUuid(patientId)) return null;
  const result = await ctx.peers.query(
    'clinical',
    PATIENT_FACTS,
    { representations: [{ __typename: 'Patient', id: patientId }] },
    { viewer: ctx.viewer, requestId: ctx.requestId, ip: ctx.ip, userAgent: ctx.userAgent },
  );
  if (result.errors?.length) {
    if (result.errors.every((e) => e.extensions?.code === 'NOT_FOUND' || e.extensions?.code === 'FORBIDDEN')) return null;
    throw new Error(`Patient lookup failed: ${result.errors.map((e) => e.message).join('; ')}`);
  }
  const found = ((result.data?._entities ?? []) as (PatientFacts | null)[])[0];
  return found ? { id: found.id, userId: found.userId ?? null, organizationId: found.organizationId ?? null } : null;
}

/** Whether the signed-in person is this patient (their own patient profile); API keys and the platform never are. */
export function isThePatient(ctx: PeerCaller, patient: PatientFacts | null): boolean {
  const v = ctx.viewer;
  return !!v && !v.apiKey && !v.system && !!patient?.userId && patient.userId === v.userId;
}
