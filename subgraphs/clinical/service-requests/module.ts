import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { patientField } from '../patients/patient-link';
import { ServiceRequest, ServiceRequestStatus } from './service-request.entity';
import { PatientServiceRequestsResolver, ServiceRequestResolver, ServiceRequestTransitionResolver } from './service-request.resolver';

export default defineModule({
  name: 'service-requests',
  description: 'FHIR ServiceRequest-like orders (lab, imaging, referrals) with a status workflow',
  entities: [ServiceRequest],
  resolvers: [
    patientField(ServiceRequest),
    referenceFields(ServiceRequest, {
      requester: { id: 'requesterId', type: 'User' },
      statusChangedByUser: { id: 'statusChangedBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    ServiceRequestResolver,
    ServiceRequestTransitionResolver,
    PatientServiceRequestsResolver,
  ],
  patientData: [
    {
      section: 'service_requests',
      entity: ServiceRequest,
      timeline: {
        kind: 'service_request',
        at: 'createdAt',
        where: { status: { $ne: ServiceRequestStatus.entered_in_error } },
        title: (r) => `Service request${r.category ? ` (${r.category})` : ''}: ${r.description ?? r.code}`,
      },
    },
  ],
});
