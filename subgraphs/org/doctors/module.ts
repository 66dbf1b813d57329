import { defineModule } from '../../../shared/module';
import { userFields } from '../users/user-link';
import { doctorOrganizations, doctorProfiles } from './doctor.consumers';
import { DoctorOrganization, DoctorProfile } from './doctor.entity';
import { DoctorResolver } from './doctor.resolver';

export default defineModule({
  name: 'doctors',
  description: 'Doctor profiles, verification, public search and availability, membership of organizations',
  entities: [DoctorProfile, DoctorOrganization],
  resolvers: [userFields(DoctorProfile, { user: { id: 'userId' }, verifiedByUser: { id: 'verifiedBy' } }), DoctorResolver],
  references: { Doctor: DoctorResolver.resolveReference },
  consumers: [doctorProfiles, doctorOrganizations],
});
