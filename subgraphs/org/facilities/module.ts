import { defineModule } from '../../../shared/module';
import { PATIENT_ADMITTED, PATIENT_DISCHARGED, PATIENT_TRANSFERRED } from './admission.events';
import { Admission, AdmissionTransfer, Room } from './facility.entity';
import { AdmissionResolver, OrganizationRoomsResolver, PatientAdmissionsResolver, RoomResolver } from './facility.resolver';

export default defineModule({
  name: 'facilities',
  description: 'Rooms and beds of an organization, admissions, transfers and discharges',
  entities: [Room, Admission, AdmissionTransfer],
  resolvers: [RoomResolver, AdmissionResolver, OrganizationRoomsResolver, PatientAdmissionsResolver],
  topics: [PATIENT_ADMITTED, PATIENT_TRANSFERRED, PATIENT_DISCHARGED],
});
