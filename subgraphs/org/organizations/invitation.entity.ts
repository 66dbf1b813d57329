import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { clock } from '../../../shared/clock';
import { BaseRecord } from '../../../shared/model';
import { stateMachine } from '../../../shared/state-machine';

export enum InvitationStatus {
  pending = 'pending',
  accepted = 'accepted',
  revoked = 'revoked',
  expired = 'expired',
}
registerEnumType(InvitationStatus, {
  name: 'InvitationStatus',
  description: 'Where an invitation to an organization is: pending, accepted, revoked or expired',
});

/**
 * accept: the invited person joins (once). revoke: an administrator withdraws it. A pending invitation past its
 * `expiresAt` is `expired` (worked out when read, stored when a new invitation replaces it).
 */
export const INVITATION = stateMachine<InvitationStatus, 'accept' | 'revoke' | 'expire'>('invitation', {
  accept: { from: [InvitationStatus.pending], to: InvitationStatus.accepted },
  revoke: { from: [InvitationStatus.pending], to: InvitationStatus.revoked },
  expire: { from: [InvitationStatus.pending], to: InvitationStatus.expired },
});

/**
 * An invitation to join an organization with a role, mailed to an address. Its token is shown only in the mail and
 * stored as SHA-256. One pending invitation per organization and address (a partial unique index).
 */
@ObjectType('OrganizationInvitation', { description: 'An invitation for someone to join an organization with a role' })
@Entity({ tableName: 'organization_invitations' })
@Index({ properties: ['organizationId', 'createdAt'] })
@Index({
  name: 'organization_invitations_pending_email_unique',
  expression:
    'create unique index "organization_invitations_pending_email_unique" on "org"."organization_invitations" ' +
    `("organization_id", "email") where "status" = 'pending'`,
})
export class OrganizationInvitation extends BaseRecord {
  @Field(() => ID)
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field({ description: 'Where the invitation was sent (lower case); only the user with this email may accept it' })
  @Property({ type: 'text' })
  email!: string;

  @Field({ description: 'The organization role the invited person gets' })
  @Property({ type: 'text' })
  role!: string;

  @Property({ type: 'text', unique: true, hidden: true })
  tokenHash!: string;

  /** As stored; read `invitationStatus()` (GraphQL `status`), which also knows about expiry. */
  @Enum({ items: () => InvitationStatus })
  status: Opt<InvitationStatus> = InvitationStatus.pending;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  invitedBy!: string;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  acceptedBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  acceptedAt?: Date | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  revokedBy?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Date | null;
}

/** The state a client sees: a pending invitation past its expiry is expired. */
export function invitationStatus(invitation: OrganizationInvitation, now = clock.now()): InvitationStatus {
  return invitation.status === InvitationStatus.pending && invitation.expiresAt <= now ? InvitationStatus.expired : invitation.status;
}
