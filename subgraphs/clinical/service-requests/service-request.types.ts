import { Matches } from 'class-validator';
import { ConnectionOf } from '../../../shared/connection';
import { ArgsType, Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { TransitionArgs } from '../../../shared/transitions';
import { IsText } from '../../../shared/validation';
import { LabOrderPriority } from '../labs/lab.entity';
import { ServiceRequest, ServiceRequestCategory, ServiceRequestStatus } from './service-request.entity';

/** A FHIR code system is named by a URI: `http://loinc.org`, `http://snomed.info/sct`, `urn:oid:...`. */
export const IsCodeSystem = () => (target: object, key: string | symbol) => {
  IsText(500)(target, key);
  Matches(/^(https?:\/\/|urn:)\S+$/, { message: 'must be a URI such as http://loinc.org' })(target, key);
};

@InputType({ description: 'The fields of a new service request' })
export class CreateServiceRequestInput {
  @Field(() => ID)
  patientId!: string;

  @Field(() => ServiceRequestCategory, { nullable: true })
  category?: ServiceRequestCategory;

  @Field({ description: 'What is requested: a code (LOINC, SNOMED CT, a local code) or a short text' })
  @IsText(200)
  code!: string;

  @Field({ nullable: true, description: 'The code system URI, such as http://loinc.org' })
  @IsCodeSystem()
  codeSystem?: string;

  @Field({ nullable: true })
  @IsText(2000)
  description?: string;

  @Field(() => LabOrderPriority, { nullable: true, description: 'routine when omitted' })
  priority?: LabOrderPriority;

  @Field({ nullable: true, description: 'Why the service is requested' })
  @IsText(2000)
  reason?: string;

  @Field({ nullable: true })
  @IsText(2000)
  notes?: string;

  @Field(() => ID, { nullable: true, description: 'The organization asked to perform it' })
  performerOrganizationId?: string;

  @Field(() => Date, { nullable: true, description: 'When the service should happen' })
  occurrenceAt?: Date;

  @Field(() => ServiceRequestStatus, { nullable: true, description: 'active (default) or draft' })
  status?: ServiceRequestStatus;
}

@ArgsType()
export class ServiceRequestListArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: "Only this patient's (any patient the caller may read)" })
  patientId?: string;

  @Field(() => ServiceRequestStatus, { nullable: true, description: 'Only requests in this status; every status when omitted' })
  status?: ServiceRequestStatus;

  @Field(() => ServiceRequestCategory, { nullable: true, description: 'Only requests in this category; every category when omitted' })
  category?: ServiceRequestCategory;
}

@ArgsType()
export class ServiceRequestTransitionArgs extends TransitionArgs {
  @Field(() => String, { nullable: true, description: 'Why the status changes' })
  @IsText(1000)
  override reason?: string | null;
}

@ObjectType()
export class ServiceRequestPage extends PageOf(ServiceRequest) {}

@ObjectType({ description: 'ServiceRequest records of a patient, by cursor' })
export class ServiceRequestConnection extends ConnectionOf(ServiceRequest, 'ServiceRequest') {}
