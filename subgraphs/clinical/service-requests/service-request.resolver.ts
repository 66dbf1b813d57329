import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { MAX_PAGE_SIZE } from '../../../shared/model';
import { OrganizationRef, ref } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { recentForPatient } from '../access/patient-graph';
import { Patient } from '../patients/patient.entity';
import { ServiceRequest } from './service-request.entity';
import { ServiceRequestService } from './service-request.service';
import {
  CreateServiceRequestInput,
  ServiceRequestListArgs,
  ServiceRequestPage,
  UpdateServiceRequestStatusArgs,
} from './service-request.types';

/** `patient { serviceRequests }`: the newest service requests (not those entered in error), batched across patients. */
@Resolver(() => Patient)
export class PatientServiceRequestsResolver {
  @FieldResolver(() => [ServiceRequest], {
    nullable: true,
    description: 'Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  serviceRequests(@Root() patient: Patient, @Arg('limit', () => Int, { defaultValue: 20 }) limit: number, @Ctx() ctx: SubgraphContext) {
    return recentForPatient(ctx, ServiceRequest, patient, {
      limit: Math.min(Math.max(limit, 1), MAX_PAGE_SIZE),
      resourceType: 'service_request',
      where: "status <> 'entered_in_error'",
    });
  }
}

@Resolver(() => ServiceRequest)
export class ServiceRequestResolver {
  private readonly service = new ServiceRequestService();

  @Mutation(() => ServiceRequest, {
    description: 'Request a service for a patient: a test, an examination, a procedure, a referral (clinicians of its organization)',
  })
  createServiceRequest(@Arg('input') input: CreateServiceRequestInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => ServiceRequestPage, {
    description: "Service requests of one patient, or of the caller's organizations and own profiles; newest first",
  })
  serviceRequests(@Args() args: ServiceRequestListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => ServiceRequest, { nullable: true })
  serviceRequest(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @Mutation(() => ServiceRequest, {
    description: 'Move a service request to another status (activate, hold, resume, complete, revoke, enter in error)',
  })
  updateServiceRequestStatus(@Args() args: UpdateServiceRequestStatusArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.changeStatus(ctx, args);
  }

  @FieldResolver(() => OrganizationRef, { nullable: true, description: 'The organization asked to perform it' })
  performerOrganization(@Root() request: ServiceRequest) {
    return ref(request.performerOrganizationId);
  }
}
