import { defineModule } from '../../../shared/module';
import { ImagingOrder } from './imaging-order.entity';
import { ImagingOrderResolver } from './imaging-order.resolver';

export default defineModule({
  name: 'imaging',
  description: 'Imaging orders: create, schedule, start, complete, cancel',
  entities: [ImagingOrder],
  resolvers: [ImagingOrderResolver],
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
