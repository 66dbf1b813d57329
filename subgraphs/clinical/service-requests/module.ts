import { defineModule } from '../../../shared/module';
import { ServiceRequest, ServiceRequestStatus } from './service-request.entity';
import { PatientServiceRequestsResolver, ServiceRequestResolver, ServiceRequestTransitionResolver } from './service-request.resolver';

export default defineModule({
  name: 'service-requests',
  description: 'FHIR ServiceRequest-like orders (lab, imaging, referrals) with a status workflow',
  entities: [ServiceRequest],
  resolvers: [ServiceRequestResolver, ServiceRequestTransitionResolver, PatientServiceRequestsResolver],
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
