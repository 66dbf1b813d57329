import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';

export enum ConsentStatus {
  requested = 'requested',
  active = 'active',
  revoked = 'revoked',
}
registerEnumType(ConsentStatus, {
  name: 'ConsentStatus',
  description: 'Where a consent is: requested, active (access granted) or revoked',
});

/**
 * grant: the patient gives access directly. request → approve: a clinician asks, the patient agrees.
 * revoke: the patient (or the requester, for a pending request) withdraws it; effective on the next read.
 */
export const CONSENT = stateMachine<ConsentStatus, 'approve' | 'revoke'>('consent', {
  approve: { from: [ConsentStatus.requested], to: ConsentStatus.active },
  revoke: { from: [ConsentStatus.requested, ConsentStatus.active], to: ConsentStatus.revoked },
});

/** A patient's permission for someone outside their organization to read their clinical data. */
@ObjectType('Consent', { description: "A patient's consent giving a clinician or an organization access to their clinical data" })
@Entity({ tableName: 'consents' })
@Index({ properties: ['patientId', 'status'] })
export class Consent extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid' })
  patientId!: string;

  @Field(() => ID, { nullable: true, description: 'The clinician (user) given access' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  granteeUserId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Or the organization given access' })
  @Index()
  @Property({ type: 'uuid', nullable: true })
  granteeOrganizationId?: string | null;

  @Field(() => ConsentStatus)
  @Enum({ items: () => ConsentStatus })
  status!: ConsentStatus;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  purpose?: string | null;

  @Field(() => Date, { nullable: true, description: 'Access ends then, unless revoked before' })
  @Property({ type: 'timestamptz', nullable: true })
  expiresAt?: Date | null;

  @Field(() => ID, { nullable: true, description: 'Who asked for it (a clinician), when requested' })
  @Property({ type: 'uuid', nullable: true })
  requestedBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  grantedAt?: Opt<Date> | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Opt<Date> | null;
}
