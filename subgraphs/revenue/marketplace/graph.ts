import { errors } from '../../../shared/errors';
import { logger } from '../../../shared/logger';
import type { PeerResult } from '../../../shared/peers';
import type { SubgraphContext } from '../../../shared/subgraph';

/**
 * What the marketplace asks other subgraphs, through the graph and as the caller (never their tables): patients and
 * e-prescriptions of `clinical`, facilities' places of `org`. Each document is written once here.
 */

const callerOf = (ctx: SubgraphContext) => ({ viewer: ctx.viewer, requestId: ctx.requestId, ip: ctx.ip, userAgent: ctx.userAgent });

const PATIENT = `query MarketplacePatient($representations: [_Any!]!) {
  _entities(representations: $representations) { ... on Patient { id } }
}`;

const EPRESCRIPTION = `query MarketplaceEPrescription($id: ID!) {
  ePrescription(id: $id) { id patientId pharmacyId status prescription { medication status } }
}`;

const FACILITIES = `query MarketplaceFacilities($representations: [_Any!]!) {
  _entities(representations: $representations) { ... on Organization { id name status city country latitude longitude } }
}`;

async function ask(ctx: SubgraphContext, subgraph: string, document: string, variables: Record<string, unknown>): Promise<PeerResult> {
  try {
    return await ctx.peers.query(subgraph, document, variables, callerOf(ctx));
  } catch (err) {
    logger.warn({ err: (err as Error).message, reqId: ctx.requestId, subgraph }, 'marketplace could not ask another subgraph');
    throw errors.serviceUnavailable(`The ${subgraph} service could not be reached; try again shortly`);
  }
}

function failed(result: PeerResult, allowNotFound: boolean): boolean {
  const error = result.errors?.find((e) => !(allowNotFound && e.extensions?.code === 'NOT_FOUND'));
  if (error) {
    logger.warn({ error: error.message, code: error.extensions?.code }, 'another subgraph answered the marketplace with an error');
    return true;
  }
  return false;
}

/** Whether the caller may see this patient (the clinical subgraph's own rules decide). */
export async function patientVisible(ctx: SubgraphContext, patientId: string): Promise<boolean> {
  const result = await ask(ctx, 'clinical', PATIENT, { representations: [{ __typename: 'Patient', id: patientId }] });
  if (failed(result, false)) throw errors.serviceUnavailable('The clinical service could not answer about the patient');
  return !!((result.data?._entities ?? []) as ({ id: string } | null)[])[0];
}

export interface EPrescriptionView {
  id: string;
  patientId: string;
  pharmacyId: string;
  status: string;
  prescription: { medication: string; status: string } | null;
}

/** An e-prescription as the caller sees it, or null when it does not exist or is hidden from them. */
export async function ePrescriptionFor(ctx: SubgraphContext, id: string): Promise<EPrescriptionView | null> {
  const result = await ask(ctx, 'clinical', EPRESCRIPTION, { id });
  if (failed(result, true)) throw errors.serviceUnavailable('The clinical service could not answer about the e-prescription');
  return (result.data?.ePrescription as EPrescriptionView | null | undefined) ?? null;
}

export interface FacilityPlace {
  id: string;
  name: string;
  status: string;
  city: string | null;
  country: string | null;
  latitude: number | null;
  longitude: number | null;
}

/** Facilities (organizations) with their place, as the org subgraph has them; unknown ids are left out. */
export async function facilityPlaces(ctx: SubgraphContext, ids: readonly string[]): Promise<FacilityPlace[]> {
  if (!ids.length) return [];
  const result = await ask(ctx, 'org', FACILITIES, { representations: ids.map((id) => ({ __typename: 'Organization', id })) });
  if (failed(result, false)) throw errors.serviceUnavailable('The organization service could not answer about facilities');
  return ((result.data?._entities ?? []) as (FacilityPlace | null)[]).filter((f): f is FacilityPlace => !!f);
}
