import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLType,
} from 'graphql';
import { SCHEMA_DIR } from '../shared/paths';
import { JourneyEntryKind } from '../subgraphs/clinical/journey/journey.types';
import { patientDataSources } from '../subgraphs/clinical/patient-data';
import { SAMPLE_PATIENT, startApp, type TestApp } from './support/app';
import { clinic, type Clinic } from './support/clinic';

/**
 * docs/graphql.md "Values": in the clinical subgraph, closed value sets are enums and calendar dates `LocalDate`,
 * in the published schema; the REST wire keeps its strings, and a value outside the set is a 400 naming the field
 * on both APIs.
 */

const schema = buildSchema(readFileSync(join(SCHEMA_DIR, 'public.graphql'), 'utf8'));

/** `Type.field` → the named type it must have (enum names are checked to be enums, with a description). */
const TYPED: Record<string, string> = {
  'Patient.gender': 'Gender',
  'Patient.dateOfBirth': 'LocalDate',
  'CreatePatientInput.gender': 'Gender',
  'UpdatePatientInput.gender': 'Gender',
  'PatientInput.gender': 'Gender',
  'MatchPatientsInput.gender': 'Gender',
  'MatchContribution.field': 'MatchField',
  'MatchContribution.outcome': 'MatchOutcome',
  'Allergy.severity': 'AllergySeverity',
  'Allergy.type': 'AllergyType',
  'Allergy.category': 'AllergyCategory',
  'Allergy.criticality': 'AllergyCriticality',
  'Allergy.onsetDate': 'LocalDate',
  'RecordAllergyInput.severity': 'AllergySeverity',
  'RecordAllergyInput.type': 'AllergyType',
  'RecordAllergyInput.category': 'AllergyCategory',
  'RecordAllergyInput.criticality': 'AllergyCriticality',
  'RecordAllergyInput.onsetDate': 'LocalDate',
  'UpdateAllergyInput.severity': 'AllergySeverity',
  'UpdateAllergyInput.onsetDate': 'LocalDate',
  'ClinicalRecord.encounterType': 'EncounterType',
  'CreateClinicalRecordInput.encounterType': 'EncounterType',
  'UpdateClinicalRecordInput.encounterType': 'EncounterType',
  'Observation.category': 'ObservationCategory',
  'Observation.interpretation': 'ObservationInterpretation',
  'RecordObservationInput.category': 'ObservationCategory',
  'RecordObservationInput.interpretation': 'ObservationInterpretation',
  'UpdateObservationInput.interpretation': 'ObservationInterpretation',
  'DiagnosticReport.category': 'DiagnosticReportCategory',
  'CreateDiagnosticReportInput.category': 'DiagnosticReportCategory',
  'ServiceRequest.category': 'ServiceRequestCategory',
  'CreateServiceRequestInput.category': 'ServiceRequestCategory',
  'ImagingOrder.modality': 'ImagingModality',
  'ImagingOrder.laterality': 'Laterality',
  'ImagingOrder.priority': 'ImagingOrderPriority',
  'CreateImagingOrderInput.priority': 'ImagingOrderPriority',
  'ImagingStudy.modality': 'ImagingModality',
  'CreateImagingStudyInput.modality': 'ImagingModality',
  'Immunization.site': 'ImmunizationSite',
  'Immunization.flags': 'DoseFlag',
  'Immunization.dueDate': 'LocalDate',
  'Immunization.earliestDate': 'LocalDate',
  'Immunization.latestDate': 'LocalDate',
  'Immunization.administeredOn': 'LocalDate',
  'AdministerImmunizationInput.site': 'ImmunizationSite',
  'AdministerImmunizationInput.administeredOn': 'LocalDate',
  'ImmunizationAdverseEvent.severity': 'ImmunizationAdverseEventSeverity',
  'ImmunizationAdverseEvent.outcome': 'ImmunizationAdverseEventOutcome',
  'ImmunizationAdverseEvent.onsetDate': 'LocalDate',
  'ImmunizationAdverseEventInput.severity': 'ImmunizationAdverseEventSeverity',
  'ImmunizationAdverseEventInput.outcome': 'ImmunizationAdverseEventOutcome',
  'ImmunizationAdverseEventInput.onsetDate': 'LocalDate',
  'ImmunizationSchedule.dateOfBirth': 'LocalDate',
  'ImmunizationSchedule.asOf': 'LocalDate',
  'AdverseEvent.onsetDate': 'LocalDate',
  'ReportAdverseEventInput.onsetDate': 'LocalDate',
  'LabIngestAck.acknowledgmentCode': 'Hl7AckCode',
  'PatientRisk.level': 'RiskLevel',
  'RiskReason.level': 'RiskLevel',
  'RiskReason.kind': 'RiskReasonKind',
  'CheckedMedication.matchedBy': 'MedicationMatchedBy',
  'CheckedMedication.origin': 'CheckedMedicationOrigin',
  'DrugInteraction.basis': 'InteractionBasis',
  'AllergyConflict.basis': 'AllergyConflictBasis',
  'PanicValueFinding.direction': 'PanicDirection',
  'InterpretedLabResult.status': 'LabValueStatus',
  'DifferentialCondition.urgency': 'ConditionUrgency',
  'AuditEvent.actorType': 'AuditActorType',
  'ExtractionItem.recordType': 'ExtractionRecordType',
  'JourneyEvent.type': 'JourneyEventType',
  'JourneyEntry.kind': 'JourneyEntryKind',
  'ReportsysExport.periodType': 'ReportsysPeriodType',
  'ReportsysPushResult.periodType': 'ReportsysPeriodType',
  'ReportsysPushResult.provider': 'ReportsysProvider',
  'ReportsysSubmission.provider': 'ReportsysProvider',
  'CdsLink.type': 'CdsLinkType',
};

function fieldType(path: string): GraphQLType {
  const [typeName, fieldName] = path.split('.');
  const type = schema.getType(typeName);
  if (!isObjectType(type) && !isInputObjectType(type)) throw new Error(`${typeName} is not in the published schema`);
  const field = type.getFields()[fieldName];
  if (!field) throw new Error(`${path} is not in the published schema`);
  return field.type;
}

describe('the published schema says what the values are', () => {
  it.each(Object.entries(TYPED))('%s is %s', (path, expected) => {
    const named = getNamedType(fieldType(path));
    expect(named.name).toBe(expected);
    if (expected !== 'LocalDate') {
      expect(isEnumType(named)).toBe(true);
      expect(named.description).toBeTruthy();
    }
  });

  it('keeps nullability and lists as they were', () => {
    expect(isNonNullType(fieldType('ClinicalRecord.encounterType'))).toBe(true);
    expect(isNonNullType(fieldType('Allergy.severity'))).toBe(false);
    const flags = fieldType('Immunization.flags');
    expect(isNonNullType(flags) && isListType(flags.ofType)).toBe(true);
  });

  it('writes enum values as the REST wire sends them', () => {
    const values = (name: string) => (schema.getType(name) as import('graphql').GraphQLEnumType).getValues().map((v) => v.name);
    expect(values('Gender').sort()).toEqual(['female', 'male', 'other', 'unknown']);
    expect(values('AllergyCriticality').sort()).toEqual(['high', 'low', 'unable_to_assess']);
    expect(values('ImagingModality')).toContain('CT');
    expect(values('Hl7AckCode').sort()).toEqual(['AA', 'AE', 'AR']);
  });
});

describe('a value outside the set', () => {
  let app: TestApp;
  let c: Clinic;
  beforeAll(async () => {
    app = await startApp();
    c = await clinic(app);
  });
  afterAll(() => app.close());

  it('is a 400 naming the field on REST, and the wire keeps its spellings', async () => {
    const bad = await c.doctor.api.post('/api/patients', { ...SAMPLE_PATIENT, gender: 'robot' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error.details).toEqual([{ field: 'gender', message: 'must be one of: male, female, other, unknown' }]);
    const allergy = await c.doctor.api.post(`/api/patients/${c.patientId}/allergies`, { substance: 'Latex', severity: 'deadly' });
    expect(allergy.status).toBe(400);
    expect(allergy.body.error.details.map((d: { field: string }) => d.field)).toEqual(['severity']);

    // Any letter case, as before gender became an enum; answered in the enum's spelling.
    const mixed = await c.doctor.api.post('/api/patients', { ...SAMPLE_PATIENT, gender: 'Female' });
    expect(mixed.status).toBe(201);
    expect(mixed.body.data).toMatchObject({ gender: 'female', date_of_birth: SAMPLE_PATIENT.date_of_birth });
    const patched = await c.doctor.api.patch(`/api/patients/${mixed.body.data.id}`, { gender: 'OTHER' });
    expect(patched.status).toBe(200);
    expect(patched.body.data.gender).toBe('other');
    const cleared = await c.doctor.api.patch(`/api/patients/${mixed.body.data.id}`, { gender: null });
    expect(cleared.body.data.gender).toBeNull();
  });

  it('is a VALIDATION_ERROR naming the field on GraphQL', async () => {
    const res = await c.doctor.api.graphql(
      'mutation($input: RecordAllergyInput!, $p: ID!) { recordAllergy(patientId: $p, input: $input) { allergy { id } } }',
      { p: c.patientId, input: { substance: 'Latex', severity: 'deadly' } },
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ message: expect.stringContaining('input.severity'), extensions: { code: 'VALIDATION_ERROR' } }),
    ]);
    const date = await c.doctor.api.graphql(
      'mutation($input: RecordAllergyInput!, $p: ID!) { recordAllergy(patientId: $p, input: $input) { allergy { id } } }',
      { p: c.patientId, input: { substance: 'Latex', onsetDate: '2024-02-30' } },
    );
    // A malformed date is refused before any resolver, as the LocalDate scalar does everywhere (HTTP status as Apollo sets it).
    expect(date.body.data ?? null).toBeNull();
    expect(date.body.errors[0]).toMatchObject({
      message: expect.stringContaining('input.onsetDate'),
      extensions: { code: 'VALIDATION_ERROR' },
    });
  });

  it('lists every timeline kind a module declares among the journey entry kinds', () => {
    const kinds: string[] = Object.values(JourneyEntryKind);
    const declared = patientDataSources().flatMap((s) => (s.timeline ? [s.timeline.kind] : []));
    expect(declared.length).toBeGreaterThan(10);
    expect(declared.filter((k) => !kinds.includes(k))).toEqual([]);
  });

  it('answers enums and dates as the strings they were', async () => {
    const res = await c.doctor.api.graphql(
      'mutation($input: RecordAllergyInput!, $p: ID!) { recordAllergy(patientId: $p, input: $input) { allergy { severity type criticality onsetDate } } }',
      { p: c.patientId, input: { substance: 'Peanuts', severity: 'severe', criticality: 'unable_to_assess', onsetDate: '2020-05-01' } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.recordAllergy.allergy).toEqual({
      severity: 'severe',
      type: 'allergy',
      criticality: 'unable_to_assess',
      onsetDate: '2020-05-01',
    });
  });
});
