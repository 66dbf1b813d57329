import { defineModule } from '../../../shared/module';
import { referenceFields } from '../../../shared/refs';
import { patientField } from '../patients/patient-link';
import { EPrescription, Prescription } from './prescription.entity';
import { PRESCRIPTION_CREATED } from './prescription.events';
import { EPrescriptionResolver, PatientPrescriptionsResolver, PrescriptionResolver } from './prescription.resolver';

export default defineModule({
  name: 'prescriptions',
  description: 'Prescriptions (sign, cancel) and e-prescriptions to pharmacies (transmit, dispense, refill)',
  entities: [Prescription, EPrescription],
  resolvers: [
    referenceFields(Prescription, {
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    referenceFields(EPrescription, {
      organization: {
        id: 'organizationId',
        type: 'Organization',
        description: 'The organization it belongs to; null when there is none or the caller may not see it',
      },
    }),
    patientField(Prescription),
    patientField(EPrescription),
    referenceFields(Prescription, {
      prescriber: { id: 'prescriberId', type: 'User' },
      signedByUser: { id: 'signedBy', type: 'User' },
      cancelledByUser: { id: 'cancelledBy', type: 'User' },
    }),
    referenceFields(EPrescription, {
      pharmacy: { id: 'pharmacyId', type: 'Organization', description: 'The pharmacy organization it is sent to' },
      createdByUser: { id: 'createdBy', type: 'User' },
      transmittedByUser: { id: 'transmittedBy', type: 'User' },
      dispensedByUser: { id: 'dispensedBy', type: 'User' },
      refillRequestedByUser: { id: 'refillRequestedBy', type: 'User' },
      cancelledByUser: { id: 'cancelledBy', type: 'User' },
    }),
    PrescriptionResolver,
    EPrescriptionResolver,
    PatientPrescriptionsResolver,
  ],
  topics: [PRESCRIPTION_CREATED],
  patientData: [
    {
      section: 'prescriptions',
      entity: Prescription,
      timeline: { kind: 'prescription', at: 'createdAt', title: (r) => `Prescription: ${r.medication} ${r.dosage}` },
    },
    { section: 'eprescriptions', entity: EPrescription },
  ],
});
