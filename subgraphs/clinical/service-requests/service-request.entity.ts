import { Entity, Enum, Index, Property, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { stateMachine } from '../../../shared/state-machine';
import { LabOrderPriority } from '../labs/lab.entity';
import { PatientRecord } from '../patient-record';

/** FHIR ServiceRequest categories, narrowed to what a clinic orders. */
export enum ServiceRequestCategory {
  laboratory = 'laboratory',
  imaging = 'imaging',
  procedure = 'procedure',
  referral = 'referral',
  consultation = 'consultation',
  other = 'other',
}
registerEnumType(ServiceRequestCategory, {
  name: 'ServiceRequestCategory',
  description: 'What kind of service is requested',
});

/** FHIR ServiceRequest statuses (request-status), in snake_case. */
export enum ServiceRequestStatus {
  draft = 'draft',
  active = 'active',
  on_hold = 'on_hold',
  completed = 'completed',
  revoked = 'revoked',
  entered_in_error = 'entered_in_error',
}
registerEnumType(ServiceRequestStatus, {
  name: 'ServiceRequestStatus',
  description: 'Where a service request is (FHIR): draft, active, on hold, completed, revoked, or entered in error',
});

/** A new request is active unless it is saved as a draft. */
export const INITIAL_SERVICE_REQUEST_STATUSES = [ServiceRequestStatus.draft, ServiceRequestStatus.active] as const;

/**
 * draft → active ⇄ on_hold; active → completed. Revoking ends a request not yet completed. A request that is
 * still open (draft, active, on hold) may be withdrawn as entered in error, after which it is hidden; completed
 * and revoked requests are final.
 */
export type ServiceRequestAction = 'activate' | 'hold' | 'resume' | 'complete' | 'revoke' | 'enter_in_error';

export const SERVICE_REQUEST = stateMachine<ServiceRequestStatus, ServiceRequestAction>('service request', {
  activate: { from: [ServiceRequestStatus.draft], to: ServiceRequestStatus.active },
  hold: { from: [ServiceRequestStatus.active], to: ServiceRequestStatus.on_hold },
  resume: { from: [ServiceRequestStatus.on_hold], to: ServiceRequestStatus.active },
  complete: { from: [ServiceRequestStatus.active], to: ServiceRequestStatus.completed },
  revoke: {
    from: [ServiceRequestStatus.draft, ServiceRequestStatus.active, ServiceRequestStatus.on_hold],
    to: ServiceRequestStatus.revoked,
  },
  enter_in_error: {
    from: [ServiceRequestStatus.draft, ServiceRequestStatus.active, ServiceRequestStatus.on_hold],
    to: ServiceRequestStatus.entered_in_error,
  },
});

/** An order for a service for a patient (a test, an examination, a procedure, a referral), FHIR ServiceRequest-like. */
@ObjectType('ServiceRequest', { description: 'A service request (FHIR ServiceRequest): a referral or an order for a service' })
@Entity({ tableName: 'service_requests' })
@Index({ properties: ['patientId', 'createdAt'] })
@Index({ properties: ['organizationId', 'createdAt'] })
export class ServiceRequest extends PatientRecord {
  @Field(() => ServiceRequestCategory, { nullable: true })
  @Property({ type: 'text', nullable: true })
  category?: ServiceRequestCategory | null;

  @Field({ description: 'What is requested: a code (LOINC, SNOMED CT, a local code) or a short text' })
  @Property({ type: 'text' })
  code!: string;

  @Field(() => String, { nullable: true, description: 'The code system URI, such as http://loinc.org' })
  @Property({ type: 'text', nullable: true })
  codeSystem?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field(() => LabOrderPriority)
  @Enum({ items: () => LabOrderPriority })
  priority!: LabOrderPriority;

  @Field(() => String, { nullable: true, description: 'Why the service is requested' })
  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes?: string | null;

  @Field(() => ID, { nullable: true, description: 'The organization asked to perform it' })
  @Property({ type: 'uuid', nullable: true })
  performerOrganizationId?: string | null;

  @Field(() => Date, { nullable: true, description: 'When the service should happen' })
  @Property({ type: 'timestamptz', nullable: true })
  occurrenceAt?: Date | null;

  @Field(() => ServiceRequestStatus)
  @Enum({ items: () => ServiceRequestStatus })
  status!: ServiceRequestStatus;

  @Field(() => ID, { description: 'Who requested it' })
  @Property({ type: 'uuid' })
  requesterId!: string;

  @Field(() => String, { nullable: true, description: 'Why the status last changed, as given with the change' })
  @Property({ type: 'text', nullable: true })
  statusReason?: string | null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  statusChangedAt?: Opt<Date> | null;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  statusChangedBy?: string | null;
}
