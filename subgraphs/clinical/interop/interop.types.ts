import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { IsText } from '../../../shared/validation';
import { SmartLaunch } from './interop.entity';
import { HIE_COUNTRIES } from './national-ids';

export enum HieCountryCode {
  KE = 'KE',
  GH = 'GH',
  NG = 'NG',
  ZA = 'ZA',
  TZ = 'TZ',
  UG = 'UG',
  RW = 'RW',
  ET = 'ET',
}
registerEnumType(HieCountryCode, {
  name: 'HieCountryCode',
  description: `Countries whose health information exchanges can be asked: ${HIE_COUNTRIES.join(', ')}`,
});

/** HL7 v3 PurposeOfUse codes a cross-border lookup may give (http://terminology.hl7.org/CodeSystem/v3-ActReason). */
export enum PurposeOfUse {
  TREAT = 'TREAT',
  ETREAT = 'ETREAT',
  COC = 'COC',
  PUBHLTH = 'PUBHLTH',
  HPAYMT = 'HPAYMT',
  HOPERAT = 'HOPERAT',
  PATRQT = 'PATRQT',
}
registerEnumType(PurposeOfUse, {
  name: 'PurposeOfUse',
  description:
    'Why patient data is asked for (HL7 v3 PurposeOfUse): treatment, emergency treatment, continuity of care, public health, payment, operations, patient request',
});

export enum FhirResourceType {
  Patient = 'Patient',
  Observation = 'Observation',
  AllergyIntolerance = 'AllergyIntolerance',
  MedicationRequest = 'MedicationRequest',
  Immunization = 'Immunization',
}
registerEnumType(FhirResourceType, { name: 'FhirResourceType', description: 'FHIR R4 resource types the read-only FHIR API serves' });

@InputType({ description: 'Launch a SMART app for a patient (EHR launch)' })
export class CreateSmartLaunchInput {
  @Field({ description: 'The SMART app to launch (a client id from the configured SMART apps)' })
  @IsText(100)
  clientId!: string;

  @Field(() => ID, { description: 'The patient in context' })
  patientId!: string;

  @Field(() => ID, { nullable: true, description: 'The encounter in context: a clinical record of the patient' })
  encounterId?: string;
}

@ObjectType('SmartLaunchResult', { description: "A launch context and the app's launch URL to open" })
export class SmartLaunchResult {
  @Field(() => SmartLaunch)
  context!: SmartLaunch;

  @Field({ description: "The app's launch URL with `iss` and `launch`: open it in the browser" })
  launchUrl!: string;

  @Field({ description: 'The FHIR base URL the app talks to' })
  iss!: string;

  @Field({ description: 'The opaque launch handle (single use, short-lived)' })
  launch!: string;
}
