import { defineRoutes } from '../route';

const ORG = '`organization_id` unless the caller belongs to one organization';

export default defineRoutes('Workforce', [
  {
    method: 'GET',
    path: '/api/workforce/members',
    operation: 'WorkforceMembers',
    summary: `The staff an organization rosters, by name (${ORG}; \`skill\`)`,
  },
  {
    method: 'POST',
    path: '/api/workforce/members',
    operation: 'CreateWorkforceMember',
    summary:
      'Add a member of staff (`user_id` of a member of the organization, or `name` and `email`; `role`, `contracted_hours_per_week`, ' +
      '`skills`, `night_eligible`, `weekend_eligible`); ORG:ADMIN',
    status: 201,
  },
  { method: 'GET', path: '/api/workforce/members/:id', operation: 'WorkforceMember', summary: 'A member of staff' },
  { method: 'GET', path: '/api/workforce/shift-types', operation: 'ShiftTypes', summary: `An organization's shift types (${ORG})` },
  {
    method: 'POST',
    path: '/api/workforce/shift-types',
    operation: 'CreateShiftType',
    summary:
      'Add a shift type (`name`, `start_time`, `end_time` HH:MM, an end at or before the start is the next day; `crosses_midnight`, ' +
      '`required_skills`; `min_staff` and `skill_requirements` store its default coverage requirement); ORG:ADMIN',
    status: 201,
  },
  { method: 'GET', path: '/api/workforce/shift-types/:id', operation: 'ShiftType', summary: 'A shift type' },
  {
    method: 'GET',
    path: '/api/workforce/coverage-requirements',
    operation: 'CoverageRequirements',
    summary: `Coverage requirements: minimum staff per shift type and day of week, in all and per skill (${ORG}; \`roster_id\`, \`shift_type_id\`)`,
  },
  {
    method: 'POST',
    path: '/api/workforce/coverage-requirements',
    operation: 'CreateCoverageRequirement',
    summary:
      'Add a coverage requirement (`shift_type_id`, `day_of_week` or every day, `min_staff`, `skill_requirements` [{`skill`, `min_staff`}], ' +
      '`roster_id` for one roster only); ORG:ADMIN',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/workforce/rosters',
    operation: 'Rosters',
    summary: `Rosters: all for ORG:ADMIN, published ones for other members (${ORG}; \`status\`)`,
  },
  {
    method: 'POST',
    path: '/api/workforce/rosters',
    operation: 'CreateRoster',
    summary:
      'Create a draft roster (`name`, `start_date`, `end_date`, at most 84 days; `member_ids`, `shift_type_ids`, `coverage_requirements` ' +
      'of this roster); ORG:ADMIN',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/workforce/rosters/:id',
    operation: 'Roster',
    summary: 'A roster, with the state and progress of its generation',
  },
  {
    method: 'GET',
    path: '/api/workforce/rosters/:id/assignments',
    operation: 'RosterAssignments',
    summary: 'The shifts of a roster, by day (`member_id`, `from`, `to`, `status` active or removed)',
  },
  {
    method: 'POST',
    path: '/api/workforce/rosters/:id/generate',
    operation: 'GenerateRoster',
    summary:
      'Generate the assignments with the HiGHS solver: answers at once with `generation_status` queued; the job (on the bus) ' +
      'moves the roster to generated; ORG:ADMIN',
  },
  {
    method: 'POST',
    path: '/api/workforce/rosters/:id/approve',
    operation: 'ApproveRoster',
    summary: 'Approve a generated roster; ORG:ADMIN',
  },
  {
    method: 'POST',
    path: '/api/workforce/rosters/:id/publish',
    operation: 'PublishRoster',
    summary: 'Publish an approved roster (409 before approval): its members are mailed their shifts; ORG:ADMIN',
  },
  {
    method: 'GET',
    path: '/api/workforce/rosters/:id/coverage-gaps',
    operation: 'CoverageGaps',
    summary:
      'What the roster leaves short (in all, or per skill), with the reason: not_generated, not_enough_staff, staff_at_limits, leave, solver_limit',
  },
  {
    method: 'GET',
    path: '/api/workforce/swaps',
    operation: 'SwapRequests',
    summary: `Swap requests: all for ORG:ADMIN, one's own for others (${ORG}; \`roster_id\`, \`status\`)`,
  },
  {
    method: 'POST',
    path: '/api/workforce/swaps',
    operation: 'CreateSwapRequest',
    summary:
      'Offer a shift to a colleague (`assignment_id`, `target_member_id`, `target_assignment_id` in exchange or none, `reason`); ' +
      '409 naming the hard rule it would break',
    status: 201,
  },
  { method: 'GET', path: '/api/workforce/swaps/:id', operation: 'SwapRequest', summary: 'A swap request' },
  {
    method: 'POST',
    path: '/api/workforce/swaps/:id/accept',
    operation: 'AcceptSwapRequest',
    summary:
      'Accept a swap (the colleague, or ORG:ADMIN for staff without an account): applied if both keep every hard rule, else 409 naming it',
  },
  {
    method: 'POST',
    path: '/api/workforce/swaps/:id/reject',
    operation: 'RejectSwapRequest',
    summary: 'Decline a swap (the colleague asked)',
  },
  {
    method: 'POST',
    path: '/api/workforce/swaps/:id/cancel',
    operation: 'CancelSwapRequest',
    summary: 'Withdraw a pending swap (the member who asked)',
  },
  {
    method: 'GET',
    path: '/api/workforce/fairness',
    operation: 'WorkforceFairness',
    summary: `Hours, nights and weekend shifts per member, deviation from the mean, Gini coefficients (${ORG}; \`roster_id\`, \`from\`, \`to\`); ORG:ADMIN`,
  },
  {
    method: 'GET',
    path: '/api/workforce/fairness/gini',
    operation: 'WorkforceGini',
    summary: `Gini coefficient of \`metric\` (hours, nights, weekends, contract_share): 0 equal, towards 1 one member has all (${ORG}); ORG:ADMIN`,
  },
]);
