import { Matches, MaxLength } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, ID, InputType, registerEnumType } from 'type-graphql';
import { PageArgs } from '../../../shared/model';

/**
 * What a client may log: what happened on its side that the platform cannot see (a record shown on screen, printed,
 * downloaded, shared, copied, a break-the-glass access). The platform's own actions (read, create, sign, erase, ...)
 * are recorded by the platform alone.
 */
export enum ClientAuditAction {
  view = 'view',
  print = 'print',
  download = 'download',
  share = 'share',
  copy = 'copy',
  screenshot = 'screenshot',
  disclose = 'disclose',
  emergency_access = 'emergency_access',
}
registerEnumType(ClientAuditAction, {
  name: 'ClientAuditAction',
  description:
    'What a client logs: view, print, download, share, copy, screenshot, disclose (told a third party), emergency_access (break the glass)',
});

const RESOURCE_TYPE = /^[a-z][a-z0-9_]{1,49}$/;
const resourceTypeMessage = { message: 'must be snake_case letters, digits and underscores (2 to 50), such as clinical_note' };

@InputType({ description: 'An event the caller logs; the caller is always its actor' })
export class LogAuditEventInput {
  @Field(() => ClientAuditAction, { description: 'What the caller did' })
  action!: ClientAuditAction;

  @Field({ description: 'The kind of record, snake_case (patient, clinical_note, recording, ...)' })
  @Matches(RESOURCE_TYPE, resourceTypeMessage)
  resourceType!: string;

  @Field({ nullable: true, description: 'The record (200 characters at most)' })
  @Matches(/^[A-Za-z0-9._:-]{1,200}$/, { message: 'must be an id: letters, digits and . _ : - (200 at most)' })
  resourceId?: string;

  @Field(() => ID, { nullable: true, description: 'The patient whose data it was; the caller must be able to read it' })
  patientId?: string;

  @Field(() => ID, { nullable: true, description: "The organization, one of the caller's (the patient's when a patient is named)" })
  organizationId?: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'What else to keep (4 KB of JSON at most)' })
  details?: Record<string, unknown>;

  @Field(() => ID, { nullable: true, description: "Must be the caller when sent: nobody logs in someone else's name" })
  actorId?: string;
}

@ArgsType()
export class AuditTrailArgs extends PageArgs {
  @Field(() => Date, { nullable: true, description: 'Only events at or after this instant' })
  from?: Date;

  @Field(() => Date, { nullable: true, description: 'Only events before this instant' })
  to?: Date;
}

@ArgsType()
export class AuditSearchArgs extends AuditTrailArgs {
  @Field(() => ID, { nullable: true, description: 'Only events of this actor (a user id)' })
  actorId?: string;

  @Field({ nullable: true, description: 'Only this action (read, list, create, update, sign, view, ...)' })
  @Matches(/^[a-z][a-z_]{1,49}$/, { message: 'must be an action such as read or sign' })
  action?: string;

  @Field({ nullable: true, description: 'Only this kind of record' })
  @Matches(RESOURCE_TYPE, resourceTypeMessage)
  resourceType?: string;

  @Field({ nullable: true, description: 'Only this record' })
  @MaxLength(200, { message: 'must be at most 200 characters' })
  resourceId?: string;

  @Field(() => ID, { nullable: true, description: "Only events about this patient's data" })
  patientId?: string;

  @Field(() => ID, { nullable: true, description: 'Only events of this organization' })
  organizationId?: string;
}

export { RESOURCE_TYPE };
