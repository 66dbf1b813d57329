import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { patientField } from '../patients/patient-link';
import { ImagingOrder } from './imaging-order.entity';
import { ImagingOrderResolver, PatientImagingOrdersResolver } from './imaging-order.resolver';

export default defineModule({
  name: 'imaging',
  description: 'Imaging orders: create, schedule, start, complete, cancel',
  entities: [ImagingOrder],
  resolvers: [
    referenceFields(ImagingOrder, {
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    patientField(ImagingOrder),
    referenceFields(ImagingOrder, {
      orderedByUser: { id: 'orderedBy', type: 'User' },
      cancelledByUser: { id: 'cancelledBy', type: 'User' },
    }),
    ImagingOrderResolver,
    PatientImagingOrdersResolver,
  ],
  patientData: [
    {
      section: 'imaging_orders',
      entity: ImagingOrder,
      timeline: {
        kind: 'imaging_order',
        at: 'createdAt',
        title: (r) => `Imaging order: ${r.modality}${r.bodyPart ? ` ${r.bodyPart}` : ''}`,
      },
    },
  ],
});
