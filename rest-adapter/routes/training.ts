import { defineRoutes } from '../route';

const ORG = '`organization_id` unless the caller belongs to one organization';

export default defineRoutes('Training', [
  {
    method: 'GET',
    path: '/api/training/courses',
    operation: 'Courses',
    summary: `An organization's courses, newest first (${ORG}; \`category\`)`,
  },
  {
    method: 'POST',
    path: '/api/training/courses',
    operation: 'CreateCourse',
    summary:
      'Add a course (`title`, `provider`, `description`, `modules` [{`title`, `duration_minutes`}], `cme_credits`, `cme_category`); ORG:ADMIN',
    status: 201,
  },
  { method: 'GET', path: '/api/training/courses/:id', operation: 'Course', summary: 'A course' },
  {
    method: 'POST',
    path: '/api/training/courses/:id/enroll',
    operation: 'EnrollInCourse',
    summary: 'Enroll in a course: the caller, or `user_id` (ORG:ADMIN); once per member and course',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/training/enrollments',
    operation: 'Enrollments',
    summary: `Enrollments: the caller's, every member's for ORG:ADMIN (${ORG}; \`course_id\`, \`user_id\`, \`status\`)`,
  },
  {
    method: 'GET',
    path: '/api/training/enrollments/:id',
    operation: 'Enrollment',
    summary: 'An enrollment (the member enrolled, or ORG:ADMIN)',
  },
  {
    method: 'PATCH',
    path: '/api/training/enrollments/:id/progress',
    operation: 'UpdateEnrollmentProgress',
    summary: 'Set `progress`, 0 to 100: 100 completes the enrollment and awards the course’s CME credits once; a completed one is a 409',
  },
  {
    method: 'POST',
    path: '/api/training/enrollments/:id/progress',
    operation: 'UpdateEnrollmentProgress',
    summary: 'The same as PATCH, for clients that report progress as an action',
  },
  {
    method: 'GET',
    path: '/api/training/cme-credits',
    operation: 'CmeCredits',
    summary: "CME credits, latest first: the caller's, or `user_id`'s for ORG:ADMIN of `organization_id` (`category`, `from`, `to`)",
  },
  {
    method: 'POST',
    path: '/api/training/cme-credits',
    operation: 'AwardCmeCredit',
    summary:
      'Award CME credits (`user_id`, `credits` in quarters, `category`, `activity`, `provider`, `activity_date`, `reference`: once per member); ORG:ADMIN',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/training/cme-credits/summary',
    operation: 'CmeCreditSummary',
    summary: 'Credits per category over a period (`from`, `to`; this calendar year by default) against `required_total` (50 by default)',
  },
  {
    method: 'GET',
    path: '/api/training/assessments',
    operation: 'Assessments',
    summary: `An organization's assessments (${ORG}; \`course_id\`)`,
  },
  {
    method: 'POST',
    path: '/api/training/assessments',
    operation: 'CreateAssessment',
    summary:
      'Add an assessment (`title`, `course_id`, `passing_score`, `questions` [{`prompt`, `options`, `correct_option` 0-based}]); ORG:ADMIN',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/training/assessments/:id',
    operation: 'Assessment',
    summary: 'An assessment; the right options are shown to ORG:ADMIN only',
  },
  {
    method: 'POST',
    path: '/api/training/assessments/:id/submit',
    operation: 'SubmitAssessment',
    summary: 'Answer an assessment (`answers`: the 0-based option of each question, in order); answers the `score` in percent and `passed`',
    status: 201,
  },
]);
