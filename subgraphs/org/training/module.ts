import { defineModule } from '../../../shared/module';
import { organizationField } from '../organizations/organization-link';
import { userFields } from '../users/user-link';
import { Assessment, AssessmentAttempt, CmeCredit, Course, Enrollment } from './training.entity';
import { CME_CREDIT_AWARDED, ENROLLMENT_COMPLETED } from './training.events';
import { AssessmentResolver, CmeCreditResolver, CourseResolver, EnrollmentResolver } from './training.resolver';

export default defineModule({
  name: 'training',
  description:
    'Courses with modules and CME credits, enrollments and progress, CME credits (awarded once) and their summary, scored assessments',
  entities: [Course, Enrollment, CmeCredit, Assessment, AssessmentAttempt],
  resolvers: [
    organizationField(Enrollment),
    organizationField(Assessment),
    organizationField(AssessmentAttempt),
    organizationField(CmeCredit),
    userFields(Course, { createdByUser: { id: 'createdBy' } }),
    userFields(Enrollment, { user: { id: 'userId' }, enrolledByUser: { id: 'enrolledBy' } }),
    userFields(CmeCredit, { user: { id: 'userId' }, awardedByUser: { id: 'awardedBy' } }),
    userFields(Assessment, { createdByUser: { id: 'createdBy' } }),
    userFields(AssessmentAttempt, { user: { id: 'userId' } }),
    CourseResolver,
    EnrollmentResolver,
    CmeCreditResolver,
    AssessmentResolver,
  ],
  topics: [ENROLLMENT_COMPLETED, CME_CREDIT_AWARDED],
});
