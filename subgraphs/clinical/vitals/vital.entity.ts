import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { Field, Float, ID, ObjectType, registerEnumType } from 'type-graphql';
import { stateMachine } from '../../../shared/state-machine';
import { PatientRecord } from '../patient-record';

/**
 * The measurements of a vital sign record: the LOINC code each one is (so observations of the same codes are held to
 * the same limits), its UCUM unit, and the physiologically plausible range outside which a value is a typing or
 * device error rather than a patient (a heart rate of 900, a temperature of 80 °C); `symbol` is the unit in messages.
 */
export const VITAL_SIGNS = {
  heartRate: { loinc: '8867-4', unit: '/min', symbol: '/min', min: 20, max: 300 },
  bloodPressureSystolic: { loinc: '8480-6', unit: 'mm[Hg]', symbol: 'mmHg', min: 40, max: 300 },
  bloodPressureDiastolic: { loinc: '8462-4', unit: 'mm[Hg]', symbol: 'mmHg', min: 20, max: 200 },
  temperature: { loinc: '8310-5', unit: 'Cel', symbol: '°C', min: 25, max: 45 },
  respiratoryRate: { loinc: '9279-1', unit: '/min', symbol: '/min', min: 2, max: 80 },
  oxygenSaturation: { loinc: '59408-5', unit: '%', symbol: '%', min: 40, max: 100 },
  weightKg: { loinc: '29463-7', unit: 'kg', symbol: 'kg', min: 0.2, max: 650 },
  heightCm: { loinc: '8302-2', unit: 'cm', symbol: 'cm', min: 20, max: 280 },
} as const;

export type VitalSign = keyof typeof VITAL_SIGNS;
export const VITAL_SIGN_FIELDS = Object.keys(VITAL_SIGNS) as VitalSign[];

/** ACVPU, the level of consciousness NEWS2 scores: alert, new confusion, or responding only to voice or pain, or unresponsive. */
export enum Consciousness {
  alert = 'alert',
  new_confusion = 'new_confusion',
  voice = 'voice',
  pain = 'pain',
  unresponsive = 'unresponsive',
}
registerEnumType(Consciousness, { name: 'Consciousness', description: 'ACVPU: alert, new confusion, voice, pain, unresponsive' });

export enum VitalStatus {
  final = 'final',
  amended = 'amended',
  entered_in_error = 'entered_in_error',
}
registerEnumType(VitalStatus, { name: 'VitalStatus', description: 'Where a vital signs record is: final, amended, or entered in error' });

/** amend: a recorded value is corrected. enter_in_error: the record is withdrawn (DELETE); kept, hidden from reads. */
export const VITAL = stateMachine<VitalStatus, 'amend' | 'enter_in_error'>('vital sign record', {
  amend: { from: [VitalStatus.final, VitalStatus.amended], to: VitalStatus.amended },
  enter_in_error: { from: [VitalStatus.final, VitalStatus.amended], to: VitalStatus.entered_in_error },
});

/** Vital signs taken together at one time (at least one measurement). */
@ObjectType('Vital', { description: 'A set of vital signs measured at one time' })
@Entity({ tableName: 'vitals' })
@Index({ properties: ['patientId', 'recordedAt'] })
export class Vital extends PatientRecord {
  @Field(() => Float, { nullable: true, description: 'Beats per minute' })
  @Property({ type: 'double', nullable: true })
  heartRate?: number | null;

  @Field(() => Float, { nullable: true, description: 'mmHg' })
  @Property({ type: 'double', nullable: true })
  bloodPressureSystolic?: number | null;

  @Field(() => Float, { nullable: true, description: 'mmHg' })
  @Property({ type: 'double', nullable: true })
  bloodPressureDiastolic?: number | null;

  @Field(() => Float, { nullable: true, description: 'Degrees Celsius' })
  @Property({ type: 'double', nullable: true })
  temperature?: number | null;

  @Field(() => Float, { nullable: true, description: 'Breaths per minute' })
  @Property({ type: 'double', nullable: true })
  respiratoryRate?: number | null;

  @Field(() => Float, { nullable: true, description: 'Percent (SpO2)' })
  @Property({ type: 'double', nullable: true })
  oxygenSaturation?: number | null;

  @Field(() => Consciousness, { nullable: true, description: 'Level of consciousness (ACVPU); null when not assessed' })
  @Enum({ items: () => Consciousness, nullable: true })
  consciousness?: Consciousness | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Breathing supplemental oxygen (true) or room air (false); null when not recorded',
  })
  @Property({ type: 'boolean', nullable: true })
  supplementalOxygen?: boolean | null;

  @Field(() => Float, { nullable: true })
  @Property({ type: 'double', nullable: true })
  weightKg?: number | null;

  @Field(() => Float, { nullable: true })
  @Property({ type: 'double', nullable: true })
  heightCm?: number | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => Date, { description: 'When the measurements were taken' })
  @Property({ type: 'timestamptz' })
  recordedAt!: Date;

  @Field(() => VitalStatus)
  @Enum({ items: () => VitalStatus })
  status!: VitalStatus;

  @Field(() => ID, { description: 'Who recorded them' })
  @Property({ type: 'uuid' })
  recordedBy!: string;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  updatedBy?: string | null;
}
