import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, Float, ID, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';

/**
 * A patient's demographics as the matcher compares them (normalized names, E.164 phone, national id), kept current
 * by the index worker from `svc.patient.created` / `svc.patient.updated` and a catch-up sweep. Internal: not in
 * the graph.
 */
@Entity({ tableName: 'mpi_records' })
export class MpiRecord {
  /** The patient's id: one entry per patient, removed when the patient is erased. */
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'uuid', nullable: true })
  organizationId?: string | null;

  @Property({ type: 'text', nullable: true })
  mrn?: string | null;

  @Property({ type: 'text' })
  givenName!: string;

  @Property({ type: 'text' })
  familyName!: string;

  @Property({ type: 'text' })
  birthDate!: string;

  @Property({ type: 'text', nullable: true })
  gender?: string | null;

  @Property({ type: 'text', nullable: true })
  phone?: string | null;

  @Property({ type: 'text', nullable: true })
  nationalId?: string | null;

  @Property({ type: 'text', nullable: true })
  nationalIdCountry?: string | null;

  /** The patient row's `updated_at` this entry was made from: the sweep re-indexes rows changed since. */
  @Property({ type: 'timestamptz' })
  sourceUpdatedAt!: Date;

  @Property({ type: 'timestamptz' })
  indexedAt: Opt<Date> = new Date();
}

/** One blocking key of an index entry: records sharing a key are compared. */
@Entity({ tableName: 'mpi_blocking_keys' })
@Index({ properties: ['record'] })
export class MpiBlockingKey {
  @PrimaryKey({ type: 'text' })
  key!: string;

  @ManyToOne(() => MpiRecord, { primary: true, deleteRule: 'cascade', fieldName: 'record_id' })
  record!: MpiRecord;
}

export enum PatientLinkStatus {
  /** Proposed (by the matcher or a person); waits for a reviewer. */
  pending_review = 'pending_review',
  /** The two records are the same person. */
  linked = 'linked',
  /** A reviewer decided they are different people; the matcher never proposes the pair again. */
  rejected = 'rejected',
  /** Was linked, then unlinked by a person; kept, with its history. */
  unlinked = 'unlinked',
}
registerEnumType(PatientLinkStatus, { name: 'PatientLinkStatus', description: 'Where a pair of patient records stands' });

export enum PatientLinkOrigin {
  matcher = 'matcher',
  person = 'person',
}
registerEnumType(PatientLinkOrigin, {
  name: 'PatientLinkOrigin',
  description: 'Who first proposed or made the link: the matcher or a person',
});

export enum PatientLinkAction {
  proposed = 'proposed',
  auto_linked = 'auto_linked',
  linked = 'linked',
  approved = 'approved',
  rejected = 'rejected',
  unlinked = 'unlinked',
}
registerEnumType(PatientLinkAction, { name: 'PatientLinkAction', description: 'A step in the history of a patient link' });

/**
 * approve / reject: a reviewer decides a proposal. link: a person links the pair directly (also after an earlier
 * rejection or unlinking, which the history keeps). unlink: a person undoes a link. propose: see below.
 */
export const PATIENT_LINK = stateMachine<PatientLinkStatus, 'approve' | 'reject' | 'link' | 'unlink' | 'propose'>('patient link', {
  approve: { from: [PatientLinkStatus.pending_review], to: PatientLinkStatus.linked },
  reject: { from: [PatientLinkStatus.pending_review], to: PatientLinkStatus.rejected },
  link: { from: [PatientLinkStatus.pending_review, PatientLinkStatus.rejected, PatientLinkStatus.unlinked], to: PatientLinkStatus.linked },
  unlink: { from: [PatientLinkStatus.linked], to: PatientLinkStatus.unlinked },
  /** A person asks for a new review of a pair rejected or unlinked before (the matcher never does). */
  propose: { from: [PatientLinkStatus.rejected, PatientLinkStatus.unlinked], to: PatientLinkStatus.pending_review },
});

export enum MatchField {
  given_name = 'given_name',
  family_name = 'family_name',
  birth_date = 'birth_date',
  gender = 'gender',
  phone = 'phone',
  national_id = 'national_id',
}
registerEnumType(MatchField, {
  name: 'MatchField',
  description: 'A demographic field the matcher compares: given_name, family_name, birth_date, gender, phone or national_id',
});

export enum MatchOutcome {
  agree = 'agree',
  partial = 'partial',
  disagree = 'disagree',
  missing = 'missing',
}
registerEnumType(MatchOutcome, {
  name: 'MatchOutcome',
  description: 'How one field compared: agree, partial, disagree, or missing (absent on either side: no evidence either way)',
});

@ObjectType('MatchContribution', { description: "One field's part in a match score" })
export class MatchContribution {
  @Field(() => MatchField)
  field!: `${MatchField}`;

  @Field(() => MatchOutcome)
  outcome!: `${MatchOutcome}`;

  @Field(() => Float, { nullable: true, description: 'Similarity in [0, 1] from the field comparator; null when missing' })
  similarity!: number | null;

  @Field(() => Float, { description: 'Log-likelihood weight in bits: positive for the same person, negative against' })
  weight!: number;

  @Field(() => Float, { description: "This field's share of the score; the shares add up to the score" })
  contribution!: number;
}

/**
 * A pair of patient records that are, or may be, the same person: a match candidate while it waits for review,
 * a link once decided. One row per pair (ids stored in order); its history is in PatientLinkEvent.
 */
@ObjectType('PatientLink', { description: 'Two patient records that are, or may be, the same person (a match)' })
@Entity({ tableName: 'mpi_links' })
@Unique({ properties: ['patientId', 'linkedPatientId'] })
@Index({ properties: ['status', 'score'] })
@Index({ properties: ['linkedPatientId'] })
export class PatientLink extends BaseRecord {
  @Field(() => ID, { description: 'One record of the pair (the smaller id)' })
  @Property({ type: 'uuid' })
  patientId!: string;

  @Field(() => ID, { description: 'The other record of the pair' })
  @Property({ type: 'uuid' })
  linkedPatientId!: string;

  @Field(() => PatientLinkStatus)
  @Enum({ items: () => PatientLinkStatus })
  status!: PatientLinkStatus;

  @Field(() => PatientLinkOrigin)
  @Enum({ items: () => PatientLinkOrigin })
  origin!: PatientLinkOrigin;

  @Field(() => Float, { nullable: true, description: 'Match score in [0, 1] when the pair was scored' })
  @Property({ type: 'double', nullable: true })
  score?: number | null;

  @Field(() => [MatchContribution], { description: "Each field's part in the score (empty when not scored)" })
  @Property({ type: 'jsonb' })
  contributions: MatchContribution[] = [];

  @Field({ description: 'The records share an identifier: national id, phone, or an organization and MRN' })
  @Property({ type: 'boolean' })
  identifierAgrees: boolean = false;

  @Field({ description: 'Same birth date and family name with different given names: possibly twins' })
  @Property({ type: 'boolean' })
  twinSuspected: boolean = false;

  @Field(() => ID, { nullable: true, description: 'Who proposed or made it; null for the matcher' })
  @Property({ type: 'uuid', nullable: true })
  proposedBy?: string | null;

  @Field(() => ID, { nullable: true, description: 'Who decided the current status; null when the matcher linked it' })
  @Property({ type: 'uuid', nullable: true })
  decidedBy?: string | null;

  @Field(() => Date, { nullable: true, description: 'When the current status was decided' })
  @Property({ type: 'timestamptz', nullable: true })
  decidedAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'Why, as the deciding person wrote it' })
  @Property({ type: 'text', nullable: true })
  reason?: string | null;
}

/** One step in a link's life: who did what, when, from which status to which, and why. Append-only. */
@ObjectType('PatientLinkEvent', { description: "A step in a patient link's history" })
@Entity({ tableName: 'mpi_link_events' })
@Index({ properties: ['link', 'createdAt'] })
export class PatientLinkEvent {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @ManyToOne(() => PatientLink, { fieldName: 'link_id' })
  link!: PatientLink;

  @Field(() => PatientLinkAction)
  @Enum({ items: () => PatientLinkAction })
  action!: PatientLinkAction;

  @Field(() => PatientLinkStatus, { nullable: true, description: 'Status before; null when the link was created' })
  @Enum({ items: () => PatientLinkStatus, nullable: true })
  fromStatus?: PatientLinkStatus | null;

  @Field(() => PatientLinkStatus)
  @Enum({ items: () => PatientLinkStatus })
  toStatus!: PatientLinkStatus;

  @Field(() => ID, { nullable: true, description: 'Who; null for the matcher' })
  @Property({ type: 'uuid', nullable: true })
  actorId?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  @Field(() => Float, { nullable: true, description: 'The score at that moment, when the step came from a match' })
  @Property({ type: 'double', nullable: true })
  score?: number | null;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  createdAt!: Date;
}
