import { randomUUID } from 'node:crypto';
import { SAMPLE_PATIENT, signUp, type Api, type TestApp } from './app';
import type { Clinic } from './clinic';
import { Appointment } from '../../subgraphs/org/scheduling/appointment.entity';
import { AppointmentRequest } from '../../subgraphs/org/scheduling/appointment-request.entity';
import { ResourceType, SchedulableResource } from '../../subgraphs/org/scheduling/resource.entity';
import { LabResult, LabResultReviewStatus } from '../../subgraphs/clinical/labs/lab.entity';
import { SupplyOrder } from '../../subgraphs/revenue/marketplace/order.entity';

/**
 * One record of every kind the graph's root fields read, about one patient of the clinic, each with its clinical
 * text filled in: what the role walk of test/clinical-access.test.ts reads as every caller. Records are written
 * through the graph as the clinic's doctor and nurse; a few no endpoint creates in one step are arranged in storage
 * (an appointment, an appointment request, a lab result, a supply order).
 */
export interface ClinicalFixture {
  patientId: string;
  /** The id of a record by its GraphQL type name. */
  ids: Record<string, string>;
}

/** A mutation's answer at `pick`, or the first error as an exception naming the mutation. */
async function run(api: Api, name: string, query: string, variables: Record<string, unknown>, pick: (data: any) => any): Promise<string> {
  const res = await api.graphql(query, variables);
  const value = res.body.data ? pick(res.body.data) : undefined;
  const root = res.body.data ? (Object.values(res.body.data)[0] as { userErrors?: unknown[] } | null) : null;
  const problems = [...(res.body.errors ?? []), ...(root?.userErrors ?? [])];
  if (problems.length || !value) throw new Error(`${name}: ${JSON.stringify(problems.length ? problems : res.body)}`);
  return value as string;
}

export async function clinicalFixture(app: TestApp, c: Clinic, admin: Api): Promise<ClinicalFixture> {
  const doctor = c.doctor.api;
  const nurse = c.nurse.api;
  const registered = await doctor.post(`/api/organizations/${c.orgId}/patients`, {
    ...SAMPLE_PATIENT,
    first_name: 'Walk',
    email: undefined,
  });
  if (registered.status !== 201) throw new Error(`patient: ${registered.status} ${registered.text}`);
  const patientId: string = registered.body.data.id;
  const today = new Date().toISOString().slice(0, 10);
  const ids: Record<string, string> = {};
  const create = async (type: string, api: Api, query: string, variables: Record<string, unknown>, pick: (d: any) => any) => {
    ids[type] = await run(api, type, query, { patientId, ...variables }, pick);
    return ids[type];
  };

  await create(
    'ClinicalRecord',
    doctor,
    'mutation($patientId: ID!) { createClinicalRecord(input: { patientId: $patientId, encounterType: consultation, chiefComplaint: "Night sweats", notes: "Weight loss" }) { id } }',
    {},
    (d) => d.createClinicalRecord.id,
  );
  await create(
    'Vital',
    nurse,
    'mutation($patientId: ID!) { recordVital(input: { patientId: $patientId, heartRate: 96 }) { id } }',
    {},
    (d) => d.recordVital.id,
  );
  await create(
    'Allergy',
    doctor,
    'mutation($patientId: ID!) { recordAllergy(patientId: $patientId, input: { substance: "Penicillin", reaction: "Rash" }) { allergy { id } userErrors { message } } }',
    {},
    (d) => d.recordAllergy.allergy.id,
  );
  await create(
    'Prescription',
    doctor,
    'mutation($patientId: ID!) { createPrescription(input: { patientId: $patientId, medication: "Dolutegravir", dosage: "50 mg", frequency: "once daily" }) { id } }',
    {},
    (d) => d.createPrescription.id,
  );
  await create(
    'LabOrder',
    doctor,
    'mutation($patientId: ID!) { createLabOrder(input: { patientId: $patientId, testType: "cbc", notes: "Baseline" }) { id } }',
    {},
    (d) => d.createLabOrder.id,
  );
  await create(
    'Immunization',
    nurse,
    'mutation($patientId: ID!) { administerImmunization(patientId: $patientId, input: { vaccine: "opv", lotNumber: "BOPV-1", site: oral }) { id } }',
    {},
    (d) => d.administerImmunization.id,
  );
  await create(
    'Observation',
    nurse,
    'mutation($patientId: ID!) { recordObservation(input: { patientId: $patientId, code: "8867-4", valueQuantity: 96, unit: "/min", notes: "Anxious" }) { id } }',
    {},
    (d) => d.recordObservation.id,
  );
  await create(
    'ServiceRequest',
    doctor,
    'mutation($patientId: ID!) { createServiceRequest(input: { patientId: $patientId, code: "58410-2", reason: "Suspected TB" }) { id } }',
    {},
    (d) => d.createServiceRequest.id,
  );
  await create(
    'DiagnosticReport',
    doctor,
    'mutation($patientId: ID!) { createDiagnosticReport(input: { patientId: $patientId, code: "58410-2", conclusion: "Lymphopenia" }) { id } }',
    {},
    (d) => d.createDiagnosticReport.id,
  );
  await create(
    'ImagingOrder',
    doctor,
    'mutation($patientId: ID!) { createImagingOrder(input: { patientId: $patientId, modality: CR, clinicalIndication: "Cough for 3 weeks" }) { id } }',
    {},
    (d) => d.createImagingOrder.id,
  );
  await create(
    'ImagingStudy',
    doctor,
    'mutation($patientId: ID!) { createImagingStudy(input: { patientId: $patientId, modality: CR, description: "Chest" }) { imagingStudy { id } userErrors { message } } }',
    {},
    (d) => d.createImagingStudy.imagingStudy.id,
  );
  const protocolId = await run(
    doctor,
    'TreatmentProtocol',
    'mutation($o: ID!) { createTreatmentProtocol(input: { organizationId: $o, name: "TB intensive phase", condition: "Tuberculosis", icd10Code: "A15", steps: [{ medication: "RHZE", dose: "4 tablets", frequency: "daily", durationDays: 56 }] }) { treatmentProtocol { id } userErrors { message } } }',
    { o: c.orgId },
    (d) => d.createTreatmentProtocol.treatmentProtocol.id,
  );
  ids.TreatmentProtocol = protocolId;
  await create(
    'PatientTreatment',
    doctor,
    'mutation($patientId: ID!, $protocolId: ID!, $today: LocalDate!) { assignTreatment(input: { patientId: $patientId, protocolId: $protocolId, startDate: $today }) { patientTreatment { id } userErrors { message } } }',
    { protocolId, today },
    (d) => d.assignTreatment.patientTreatment.id,
  );
  await create(
    'ClinicalNote',
    doctor,
    'mutation($patientId: ID!) { createClinicalNote(input: { patientId: $patientId, subjective: "Cough", assessment: "Suspected TB" }) { id } }',
    {},
    (d) => d.createClinicalNote.id,
  );
  await create(
    'NotifiableCase',
    doctor,
    'mutation($patientId: ID!, $today: LocalDate!) { reportNotifiableCase(input: { patientId: $patientId, classification: suspected, icd10Code: "A00.1", onsetDate: $today }) { id } }',
    { today },
    (d) => d.reportNotifiableCase.id,
  );
  await create(
    'AdverseEvent',
    doctor,
    'mutation($patientId: ID!) { reportAdverseEvent(input: { patientId: $patientId, outcome: recovering, reaction: "Rash", suspectedDrug: "Nevirapine" }) { id } }',
    {},
    (d) => d.reportAdverseEvent.id,
  );
  // Reached only inside other clinical records (the immunization schedule, the journey): created, not walked to.
  await run(
    nurse,
    'ImmunizationAdverseEvent',
    'mutation($patientId: ID!, $today: LocalDate!) { reportImmunizationAdverseEvent(patientId: $patientId, input: { vaccine: "opv", description: "Fever", onsetDate: $today, severity: mild }) { id } }',
    { patientId, today },
    (d) => d.reportImmunizationAdverseEvent.id,
  );
  await run(
    doctor,
    'JourneyEvent',
    'mutation($patientId: ID!) { recordJourneyEvent(patientId: $patientId, input: { type: "diagnosis", title: "Diagnosed with tuberculosis" }) { id } }',
    { patientId },
    (d) => d.recordJourneyEvent.id,
  );
  await create(
    'Dictation',
    doctor,
    'mutation($patientId: ID!) { startDictation(input: { patientId: $patientId }) { id } }',
    {},
    (d) => d.startDictation.id,
  );
  await create(
    'ActionItem',
    doctor,
    'mutation($patientId: ID!) { createActionItem(input: { patientId: $patientId, title: "Repeat sputum smear" }) { id } }',
    {},
    (d) => d.createActionItem.id,
  );
  await create(
    'Extraction',
    doctor,
    'mutation($patientId: ID!) { createExtraction(input: { patientId: $patientId, text: "Start rifampicin 600 mg daily" }) { id } }',
    {},
    (d) => d.createExtraction.id,
  );

  // Admission: a stay moved once and ended, with its clinical text; another stay the patient is in now.
  const room = async (name: string) => {
    const res = await admin.post(`/api/organizations/${c.orgId}/rooms`, {
      name: `${name} ${randomUUID().slice(0, 6)}`,
      type: 'ward',
      capacity: 5,
    });
    if (res.status !== 201) throw new Error(`room: ${res.status} ${res.text}`);
    return res.body.data.id as string;
  };
  const [wardA, wardB] = [await room('Walk A'), await room('Walk B')];
  const admissions = `/api/organizations/${c.orgId}/admissions`;
  const admitted = await nurse.post(admissions, { patient_id: patientId, room_id: wardA, reason: 'Haemoptysis', notes: 'Isolate' });
  if (admitted.status !== 201) throw new Error(`admit: ${admitted.status} ${admitted.text}`);
  ids.Admission = admitted.body.data.id;
  const moved = await nurse.post(`${admissions}/${ids.Admission}/transfer`, { room_id: wardB, reason: 'Needs negative pressure room' });
  if (moved.status !== 200) throw new Error(`transfer: ${moved.status} ${moved.text}`);
  const ended = await nurse.post(`${admissions}/${ids.Admission}/discharge`, { discharge_summary: 'Smear-positive TB, on RHZE' });
  if (ended.status !== 200) throw new Error(`discharge: ${ended.status} ${ended.text}`);
  const again = await nurse.post(admissions, {
    patient_id: patientId,
    room_id: wardB,
    reason: 'Drug-induced hepatitis',
    notes: 'Hold RHZE',
  });
  if (again.status !== 201) throw new Error(`admit: ${again.status} ${again.text}`);
  ids.Room = wardB;

  // Arranged in storage: booking, requests, lab messages and shop orders have suites of their own.
  const someone = await signUp(app.api);
  const org = app.em('org');
  const resource = org.create(SchedulableResource, {
    organizationId: c.orgId,
    type: ResourceType.room,
    name: `Walk ${randomUUID().slice(0, 6)}`,
  });
  const start = new Date(Date.now() + 3_600_000);
  const appointment = org.create(Appointment, {
    organizationId: c.orgId,
    resource,
    patientId,
    doctorUserId: c.doctor.user.id,
    patientName: 'Walk Odhiambo',
    patientEmail: 'walk@example.test',
    startTime: start,
    endTime: new Date(start.getTime() + 1_800_000),
    reason: 'Cough and night sweats',
  });
  const request = org.create(AppointmentRequest, {
    organizationId: c.orgId,
    requestedBy: someone.user.id,
    patientId,
    patientName: 'Walk Odhiambo',
    patientEmail: 'walk@example.test',
    preferredStart: start,
    preferredEnd: new Date(start.getTime() + 1_800_000),
    reason: 'Refill of HIV medicines',
  });
  await org.flush();
  ids.Appointment = appointment.id;
  ids.AppointmentRequest = request.id;
  ids.SchedulableResource = resource.id;

  const clinical = app.em('clinical');
  const result = clinical.create(LabResult, {
    labOrderId: ids.LabOrder,
    patientId,
    organizationId: c.orgId,
    code: '24467-3',
    valueType: 'NM',
    value: '85',
    numericValue: 85,
    abnormalFlag: 'LL',
    abnormal: true,
    critical: true,
    resultStatus: 'F',
    messageControlId: `WALK-${randomUUID().slice(0, 8)}`,
    sequence: 1,
    reviewStatus: LabResultReviewStatus.pending_review,
  });
  await clinical.flush();
  ids.LabResult = result.id;

  const revenue = app.em('revenue');
  const order = revenue.create(SupplyOrder, {
    number: `ORD-W${randomUUID().slice(0, 6)}`,
    facilityId: c.orgId,
    customerId: someone.user.id,
    patientId,
    items: [],
    currency: 'KES',
    totalAmount: '0',
    verificationNotes: 'Checked against the dolutegravir prescription',
  });
  await revenue.flush();
  ids.SupplyOrder = order.id;

  return { patientId, ids };
}
