import { defineModule } from '../../../shared/module';
import { idLinkFields, referenceFields } from '../../../shared/refs';
import { PatientTreatment, TreatmentProtocol, TreatmentProtocolVersion } from './treatment.entity';
import { PatientTreatmentResolver, PatientTreatmentsResolver, TreatmentProtocolResolver } from './treatment.resolver';
import { TreatmentProtocolService } from './treatment.service';

export default defineModule({
  name: 'treatments',
  description:
    'Treatment protocols (steps of medications, doses and durations; versioned; retired once used) and patients on them (progress, completed or discontinued)',
  entities: [TreatmentProtocol, TreatmentProtocolVersion, PatientTreatment],
  resolvers: [
    referenceFields(PatientTreatment, {
      prescriber: { id: 'prescriberId', type: 'User' },
      assignedByUser: { id: 'assignedBy', type: 'User' },
      updatedByUser: { id: 'updatedBy', type: 'User' },
    }),
    referenceFields(TreatmentProtocol, {
      createdByUser: { id: 'createdBy', type: 'User' },
      updatedByUser: { id: 'updatedBy', type: 'User' },
      retiredByUser: { id: 'retiredBy', type: 'User' },
    }),
    referenceFields(TreatmentProtocolVersion, { changedByUser: { id: 'changedBy', type: 'User' } }),
    idLinkFields(TreatmentProtocolVersion, 'ProtocolLink', {
      protocol: {
        id: 'protocolId',
        type: TreatmentProtocol,
        description: 'The protocol it is a version of; null when the caller may not read it (the rule of treatmentProtocol(id))',
        resolve: (id, ctx) => new TreatmentProtocolService().visible(ctx, id),
      },
    }),
    TreatmentProtocolResolver,
    PatientTreatmentResolver,
    PatientTreatmentsResolver,
  ],
  patientData: [
    {
      section: 'treatments',
      entity: PatientTreatment,
      timeline: { kind: 'treatment', at: 'startDate', title: (r) => `Treatment started: ${r.protocolName}` },
    },
  ],
});
