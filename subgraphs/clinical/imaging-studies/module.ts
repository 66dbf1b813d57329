import { defineModule } from '../../../shared/module';
import { ImagingOrder } from '../imaging/imaging-order.entity';
import { ServiceRequest, ServiceRequestStatus } from '../service-requests/service-request.entity';
import { referenceFields } from '../../../shared/refs';
import { patientField, recordFields } from '../patients/patient-link';
import { ImagingStudy, ImagingStudyStatus } from './imaging-study.entity';
import { ImagingStudyResolver, ImagingStudyTransitionResolver, PatientImagingStudiesResolver } from './imaging-study.resolver';

export default defineModule({
  name: 'imaging-studies',
  description: 'Imaging studies (DICOM study metadata) with a status workflow',
  entities: [ImagingStudy],
  resolvers: [
    recordFields(ImagingStudy, {
      imagingOrder: { id: 'imagingOrderId', type: ImagingOrder },
      serviceRequest: {
        id: 'serviceRequestId',
        type: ServiceRequest,
        hidden: (r) => (r as ServiceRequest).status === ServiceRequestStatus.entered_in_error,
      },
    }),
    patientField(ImagingStudy),
    referenceFields(ImagingStudy, {
      recordedByUser: { id: 'recordedBy', type: 'User' },
      statusChangedByUser: { id: 'statusChangedBy', type: 'User' },
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    ImagingStudyResolver,
    ImagingStudyTransitionResolver,
    PatientImagingStudiesResolver,
  ],
  patientData: [
    {
      section: 'imaging_studies',
      entity: ImagingStudy,
      timeline: {
        kind: 'imaging_study',
        at: 'createdAt',
        where: { status: { $ne: ImagingStudyStatus.entered_in_error } },
        title: (r) => `Imaging study: ${r.modality}${r.bodyPart ? ` ${r.bodyPart}` : ''}`,
      },
    },
  ],
});
