import { defineModule } from '../../../shared/module';
import { AttendanceEntry } from './attendance.entity';
import { AttendanceResolver } from './attendance.resolver';
import { LeaveRequest } from './leave.entity';
import { LEAVE_APPROVED } from './leave.events';
import { LeaveResolver } from './leave.resolver';

export default defineModule({
  name: 'staff',
  description: 'Staff attendance (clock in and out) and leave requests with their approval',
  entities: [AttendanceEntry, LeaveRequest],
  resolvers: [AttendanceResolver, LeaveResolver],
  topics: [LEAVE_APPROVED],
});
