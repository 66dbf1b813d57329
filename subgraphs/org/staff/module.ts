import { defineModule } from '../../../shared/module';
import { organizationField } from '../organizations/organization-link';
import { userFields } from '../users/user-link';
import { AttendanceEntry } from './attendance.entity';
import { AttendanceResolver } from './attendance.resolver';
import { LeaveRequest } from './leave.entity';
import { LEAVE_APPROVED } from './leave.events';
import { LeaveResolver } from './leave.resolver';

export default defineModule({
  name: 'staff',
  description: 'Staff attendance (clock in and out) and leave requests with their approval',
  entities: [AttendanceEntry, LeaveRequest],
  resolvers: [
    organizationField(LeaveRequest),
    organizationField(AttendanceEntry),
    userFields(AttendanceEntry, { user: { id: 'userId' } }),
    userFields(LeaveRequest, { user: { id: 'userId' }, decidedByUser: { id: 'decidedBy' } }),
    AttendanceResolver,
    LeaveResolver,
  ],
  topics: [LEAVE_APPROVED],
});
