import { defineModule } from '../../../shared/module';
import { EPrescription, Prescription } from './prescription.entity';
import { PRESCRIPTION_CREATED } from './prescription.events';
import { EPrescriptionResolver, PatientPrescriptionsResolver, PrescriptionResolver } from './prescription.resolver';

export default defineModule({
  name: 'prescriptions',
  description: 'Prescriptions (sign, cancel) and e-prescriptions to pharmacies (transmit, dispense, refill)',
  entities: [Prescription, EPrescription],
  resolvers: [PrescriptionResolver, EPrescriptionResolver, PatientPrescriptionsResolver],
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
