import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { OrganizationRef, ref } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { transitionResolver } from '../../../shared/transitions';
import { connectionForPatient, patientList } from '../access/patient-graph';
import { ConnectionArgs } from '../../../shared/connection';
import { Patient } from '../patients/patient.entity';
import { SERVICE_REQUEST, ServiceRequest } from './service-request.entity';
import { ServiceRequestService } from './service-request.service';
import {
  CreateServiceRequestInput,
  ServiceRequestListArgs,
  ServiceRequestPage,
  ServiceRequestTransitionArgs,
  ServiceRequestConnection,
} from './service-request.types';

const SERVICE_REQUEST_LIST = patientList('service_request', ServiceRequest, {
  sortColumn: 'created_at',
  where: "status <> 'entered_in_error'",
});

/** `patient { serviceRequests }`: the newest service requests (not those entered in error), batched across patients. */
@Resolver(() => Patient)
export class PatientServiceRequestsResolver {
  @FieldResolver(() => ServiceRequestConnection, {
    nullable: true,
    description:
      'Service requests (lab, imaging, referral orders), newest first (not those entered in error), by cursor. Clinical data: null with a FORBIDDEN error for a caller without clinical:read',
  })
  serviceRequests(@Root() patient: Patient, @Args() args: ConnectionArgs, @Ctx() ctx: SubgraphContext) {
    return connectionForPatient(ctx, SERVICE_REQUEST_LIST, patient, args);
  }
}

@Resolver(() => ServiceRequest)
export class ServiceRequestResolver {
  private readonly service = new ServiceRequestService();

  @Mutation(() => ServiceRequest, {
    description: 'Request a service for a patient: a test, an examination, a procedure, a referral (clinicians of its organization)',
  })
  createServiceRequest(
    @Arg('input', { description: 'The fields of the new service request' }) input: CreateServiceRequestInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @Query(() => ServiceRequestPage, {
    description: "Service requests of one patient, or of the caller's organizations and own profiles; newest first",
  })
  serviceRequests(@Args() args: ServiceRequestListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Query(() => ServiceRequest, {
    nullable: true,
    description: 'A service request (a referral or an order for a service); NOT_FOUND when missing or not readable',
  })
  serviceRequest(@Arg('id', () => ID, { description: 'The service request' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @FieldResolver(() => OrganizationRef, { nullable: true, description: 'The organization asked to perform it' })
  performerOrganization(@Root() request: ServiceRequest) {
    return ref(request.performerOrganizationId);
  }
}

/** One mutation per move of a service request; entered in error hides it from reads. */
export const ServiceRequestTransitionResolver = transitionResolver({
  type: () => ServiceRequest,
  machine: SERVICE_REQUEST,
  args: ServiceRequestTransitionArgs,
  run: (ctx, args, action) => new ServiceRequestService().transition(ctx, args, action),
  mutations: {
    activate: { name: 'activateServiceRequest', description: 'Activate a draft service request' },
    hold: { name: 'holdServiceRequest', description: 'Put an active service request on hold' },
    resume: { name: 'resumeServiceRequest', description: 'Make a service request on hold active again' },
    complete: { name: 'completeServiceRequest', description: 'Complete an active service request' },
    revoke: { name: 'revokeServiceRequest', description: 'Revoke a service request not yet completed' },
    enter_in_error: {
      name: 'markServiceRequestEnteredInError',
      description: 'Mark an open service request entered in error: kept, hidden from lists and reads',
    },
  },
});
