import { defineModule } from '../../../shared/module';
import { organizationField } from '../organizations/organization-link';
import { userFields } from '../users/user-link';
import { PATIENT_ADMITTED, PATIENT_DISCHARGED, PATIENT_TRANSFERRED } from './admission.events';
import { Admission, AdmissionTransfer, Room } from './facility.entity';
import {
  AdmissionResolver,
  AdmissionTransferResolver,
  OrganizationRoomsResolver,
  PatientAdmissionsResolver,
  RoomResolver,
} from './facility.resolver';

export default defineModule({
  name: 'facilities',
  description: 'Rooms and beds of an organization, admissions, transfers and discharges',
  entities: [Room, Admission, AdmissionTransfer],
  resolvers: [
    organizationField(Admission),
    organizationField(Room),
    userFields(Admission, {
      admittedByUser: { id: 'admittedBy' },
      dischargedByUser: { id: 'dischargedBy' },
      attendingDoctor: { id: 'attendingDoctorId' },
    }),
    userFields(Room, { createdByUser: { id: 'createdBy' } }),
    RoomResolver,
    AdmissionResolver,
    OrganizationRoomsResolver,
    PatientAdmissionsResolver,
    AdmissionTransferResolver,
  ],
  topics: [PATIENT_ADMITTED, PATIENT_TRANSFERRED, PATIENT_DISCHARGED],
});
