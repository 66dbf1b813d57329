import { defineModule } from '../../../shared/module';
import { idLinkFields } from '../../../shared/refs';
import { organizationField } from '../organizations/organization-link';
import { userFields } from '../users/user-link';
import { Assessment, AssessmentAttempt, CmeCredit, Course, Enrollment } from './training.entity';
import { CME_CREDIT_AWARDED, ENROLLMENT_COMPLETED } from './training.events';
import { AssessmentResolver, CmeCreditResolver, CourseResolver, EnrollmentResolver } from './training.resolver';
import { TrainingService } from './training.service';

const training = new TrainingService();

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
    idLinkFields(Enrollment, 'CreditLink', {
      cmeCredit: {
        id: 'cmeCreditId',
        type: CmeCredit,
        description: 'The CME credit completing it awarded; null when there is none or the caller may not read it (the rule of cmeCredits)',
        resolve: (id, ctx) => training.visibleCredit(ctx, id),
      },
    }),
    idLinkFields(CmeCredit, 'EnrollmentLink', {
      enrollment: {
        id: 'enrollmentId',
        type: Enrollment,
        description:
          'The enrollment whose completion awarded it; null when there is none or the caller may not read it (the rule of enrollment(id))',
        resolve: (id, ctx) => training.visibleEnrollment(ctx, id),
      },
    }),
    idLinkFields(AssessmentAttempt, 'AssessmentLink', {
      assessment: {
        id: 'assessmentId',
        type: Assessment,
        description: 'The assessment attempted; null when the caller may not read it (the rule of assessment(id))',
        resolve: (id, ctx) => training.visibleAssessment(ctx, id),
      },
    }),
    CourseResolver,
    EnrollmentResolver,
    CmeCreditResolver,
    AssessmentResolver,
  ],
  topics: [ENROLLMENT_COMPLETED, CME_CREDIT_AWARDED],
});
