import { defineRoutes } from '../route';

export default defineRoutes('Staff attendance and leave', [
  {
    method: 'POST',
    path: '/api/attendance/clock-in',
    operation: 'ClockIn',
    summary: 'Clock in (`organization_id` unless the caller has one organization, `note`, `location`)',
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/attendance/clock-out',
    operation: 'ClockOut',
    summary: 'Clock out (`organization_id` when clocked in at several, `note`); answers the entry with `duration_minutes`',
  },
  {
    method: 'GET',
    path: '/api/attendance/today',
    operation: 'AttendanceToday',
    summary: "Today's entries (UTC day) with totals: the caller's; `organization_id` (+ `user_id`) for administrators",
  },
  {
    method: 'POST',
    path: '/api/leave-requests',
    operation: 'CreateLeaveRequest',
    summary: 'Ask for leave (`organization_id`, `type`, `start_date`, `end_date`, `reason`)',
    status: 201,
  },
  { method: 'GET', path: '/api/leave-requests', operation: 'MyLeaveRequests', summary: "The caller's leave requests (`status`, `type`)" },
  { method: 'GET', path: '/api/leave-requests/:id', operation: 'LeaveRequest', summary: 'A leave request (its requester or an approver)' },
  {
    method: 'POST',
    path: '/api/leave-requests/:id/cancel',
    operation: 'CancelLeaveRequest',
    summary: 'Withdraw a pending leave request (its requester)',
  },
  {
    method: 'GET',
    path: '/api/organizations/:org_id/leave-requests',
    operation: 'OrganizationLeaveRequests',
    summary: "An organization's leave requests: all for approvers (`user_id`), else the caller's own (`status`, `type`)",
  },
  {
    method: 'POST',
    path: '/api/organizations/:org_id/leave-requests/:id/approve',
    operation: 'ApproveLeaveRequest',
    summary: 'Approve a pending leave request (ORG:ADMIN); emits svc.workforce.leave_approved',
  },
  {
    method: 'POST',
    path: '/api/organizations/:org_id/leave-requests/:id/reject',
    operation: 'RejectLeaveRequest',
    summary: 'Reject a pending leave request (`reason`; ORG:ADMIN)',
  },
]);
