import type { Allergy } from '../allergies/allergy.entity';
import type { Immunization } from '../immunizations/immunization.entity';
import type { LabResult } from '../labs/lab.entity';
import type { Observation } from '../observations/observation.entity';
import type { Prescription } from '../prescriptions/prescription.entity';
import { VITAL_SIGN_FIELDS, VITAL_SIGNS, type Vital, type VitalSign } from '../vitals/vital.entity';
import type { FhirResource } from './fhir';

/**
 * The platform's clinical rows as FHIR R4 resources for the read-only FHIR API: vital signs and lab results (and
 * recorded observations) as Observation, allergies as AllergyIntolerance, prescriptions as MedicationRequest,
 * administered doses as Immunization. Pure mapping; every shape is validated against R4 in the tests.
 */

const UCUM = 'http://unitsofmeasure.org';
const LOINC = 'http://loinc.org';
const OBS_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';

const subject = (patientId: string) => ({ reference: `Patient/${patientId}` });
const meta = (updatedAt: Date) => ({ lastUpdated: updatedAt.toISOString() });
const category = (
  code: 'vital-signs' | 'laboratory' | 'exam' | 'survey' | 'social-history' | 'imaging' | 'procedure' | 'therapy' | 'activity',
  display: string,
) => [{ coding: [{ system: OBS_CATEGORY, code, display }] }];
const slug = (sign: string) => sign.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const DISPLAY: Record<VitalSign, string> = {
  heartRate: 'Heart rate',
  bloodPressureSystolic: 'Systolic blood pressure',
  bloodPressureDiastolic: 'Diastolic blood pressure',
  temperature: 'Body temperature',
  respiratoryRate: 'Respiratory rate',
  oxygenSaturation: 'Oxygen saturation in Arterial blood by Pulse oximetry',
  weightKg: 'Body weight',
  heightCm: 'Body height',
};

function quantity(sign: VitalSign, value: number) {
  const s = VITAL_SIGNS[sign];
  return { value, unit: s.symbol, system: UCUM, code: s.unit };
}

/** One Observation per measured vital sign; blood pressure as the LOINC panel 85354-9 with its two components. */
export function vitalObservations(v: Vital): FhirResource[] {
  const base = {
    resourceType: 'Observation',
    meta: meta(v.updatedAt),
    status: v.status === 'amended' ? 'amended' : 'final',
    category: category('vital-signs', 'Vital Signs'),
    subject: subject(v.patientId),
    effectiveDateTime: v.recordedAt.toISOString(),
  };
  const out: FhirResource[] = [];
  for (const sign of VITAL_SIGN_FIELDS) {
    if (sign === 'bloodPressureSystolic' || sign === 'bloodPressureDiastolic') continue;
    const value = v[sign];
    if (value === null || value === undefined) continue;
    out.push({
      ...base,
      id: `${v.id}-${slug(sign)}`,
      code: { coding: [{ system: LOINC, code: VITAL_SIGNS[sign].loinc, display: DISPLAY[sign] }], text: DISPLAY[sign] },
      valueQuantity: quantity(sign, value),
    });
  }
  if (v.bloodPressureSystolic != null && v.bloodPressureDiastolic != null) {
    out.push({
      ...base,
      id: `${v.id}-blood-pressure`,
      code: {
        coding: [{ system: LOINC, code: '85354-9', display: 'Blood pressure panel with all children optional' }],
        text: 'Blood pressure',
      },
      component: (['bloodPressureSystolic', 'bloodPressureDiastolic'] as const).map((sign) => ({
        code: { coding: [{ system: LOINC, code: VITAL_SIGNS[sign].loinc, display: DISPLAY[sign] }] },
        valueQuantity: quantity(sign, v[sign]!),
      })),
    });
  }
  return out;
}

/** The vital sign record an Observation id names, and which sign: `<uuid>-heart-rate`. */
export function parseVitalObservationId(id: string): { vitalId: string; sign: string } | null {
  const m = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-([a-z-]+)$/i.exec(id);
  return m ? { vitalId: m[1], sign: m[2] } : null;
}

const LAB_STATUS: Record<string, string> = {
  F: 'final',
  P: 'preliminary',
  C: 'corrected',
  X: 'cancelled',
  R: 'preliminary',
  I: 'registered',
  W: 'entered-in-error',
};
const FLAGS: Record<string, string> = { H: 'H', L: 'L', HH: 'HH', LL: 'LL', A: 'A', AA: 'AA', N: 'N' };

/** A lab result (from an HL7v2 OBX) as a laboratory Observation. */
export function labObservation(r: LabResult): FhirResource {
  const system = r.codeSystem === 'LN' || r.codeSystem?.toLowerCase() === 'loinc' ? LOINC : undefined;
  const resource: FhirResource = {
    resourceType: 'Observation',
    id: r.id,
    meta: meta(r.updatedAt),
    status: LAB_STATUS[r.resultStatus?.toUpperCase()] ?? 'final',
    category: category('laboratory', 'Laboratory'),
    code: {
      coding: [{ ...(system ? { system } : {}), code: r.code, ...(r.display ? { display: r.display } : {}) }],
      ...(r.display ? { text: r.display } : {}),
    },
    subject: subject(r.patientId),
    ...(r.observedAt ? { effectiveDateTime: r.observedAt.toISOString() } : {}),
  };
  if (r.numericValue !== null && r.numericValue !== undefined) {
    resource.valueQuantity = { value: r.numericValue, ...(r.unit ? { unit: r.unit } : {}) };
  } else if (r.value) {
    resource.valueString = r.value;
  }
  const flag = r.abnormalFlag ? FLAGS[r.abnormalFlag.toUpperCase()] : undefined;
  if (flag) resource.interpretation = [{ coding: [{ system: INTERPRETATION, code: flag }] }];
  if (r.referenceRange) resource.referenceRange = [{ text: r.referenceRange }];
  return resource;
}

const OBSERVATION_STATUS: Record<string, string> = { entered_in_error: 'entered-in-error' };
const CATEGORIES = new Set([
  'vital-signs',
  'laboratory',
  'exam',
  'survey',
  'social-history',
  'imaging',
  'procedure',
  'therapy',
  'activity',
]);

/** An observation recorded through `/api/observations` (LOINC coded). */
export function recordedObservation(o: Observation): FhirResource {
  const cat = o.category.replace(/_/g, '-');
  const resource: FhirResource = {
    resourceType: 'Observation',
    id: o.id,
    meta: meta(o.updatedAt),
    status: OBSERVATION_STATUS[o.status] ?? o.status,
    category: CATEGORIES.has(cat) ? category(cat as 'exam', cat) : [{ text: o.category }],
    code: {
      coding: [{ system: LOINC, code: o.code, ...(o.display ? { display: o.display } : {}) }],
      ...(o.display ? { text: o.display } : {}),
    },
    subject: subject(o.patientId),
    effectiveDateTime: o.effectiveAt.toISOString(),
  };
  if (o.valueQuantity !== null && o.valueQuantity !== undefined) {
    resource.valueQuantity = { value: o.valueQuantity, ...(o.unit ? { unit: o.unit, system: UCUM, code: o.unit } : {}) };
  } else if (o.valueString) resource.valueString = o.valueString;
  if (o.notes) resource.note = [{ text: o.notes }];
  return resource;
}

export function allergyIntolerance(a: Allergy): FhirResource {
  return {
    resourceType: 'AllergyIntolerance',
    id: a.id,
    meta: meta(a.updatedAt),
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: a.status }] },
    verificationStatus: {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', code: 'confirmed' }],
    },
    type: a.type,
    ...(a.category ? { category: [a.category] } : {}),
    ...(a.criticality ? { criticality: a.criticality.replace(/_/g, '-') } : {}),
    code: { text: a.substance },
    patient: subject(a.patientId),
    ...(a.onsetDate ? { onsetDateTime: a.onsetDate } : {}),
    recordedDate: a.createdAt.toISOString(),
    ...(a.reaction || a.severity
      ? { reaction: [{ manifestation: [{ text: a.reaction ?? 'reaction' }], ...(a.severity ? { severity: a.severity } : {}) }] }
      : {}),
    ...(a.notes ? { note: [{ text: a.notes }] } : {}),
  };
}

const RX_STATUS: Record<string, string> = { draft: 'draft', signed: 'active', cancelled: 'cancelled' };

export function medicationRequest(p: Prescription): FhirResource {
  const text = [p.dosage, p.frequency, p.duration ? `for ${p.duration}` : null].filter(Boolean).join(', ');
  return {
    resourceType: 'MedicationRequest',
    id: p.id,
    meta: meta(p.updatedAt),
    status: RX_STATUS[p.status] ?? 'unknown',
    intent: 'order',
    medicationCodeableConcept: { text: p.medication },
    subject: subject(p.patientId),
    authoredOn: (p.signedAt ?? p.createdAt).toISOString(),
    dosageInstruction: [{ text, ...(p.instructions ? { patientInstruction: p.instructions } : {}) }],
    dispenseRequest: { numberOfRepeatsAllowed: p.refills },
  };
}

/** An administered dose (scheduled doses are a plan, not an Immunization). */
export function immunization(i: Immunization): FhirResource {
  return {
    resourceType: 'Immunization',
    id: i.id,
    meta: meta(i.updatedAt),
    status: 'completed',
    vaccineCode: { text: i.vaccine },
    patient: subject(i.patientId),
    occurrenceDateTime: i.administeredOn ?? i.dueDate,
    ...(i.lotNumber ? { lotNumber: i.lotNumber } : {}),
    ...(i.site ? { site: { text: i.site } } : {}),
    ...(i.notes ? { note: [{ text: i.notes }] } : {}),
    protocolApplied: [{ doseNumberPositiveInt: i.doseNumber }],
  };
}
