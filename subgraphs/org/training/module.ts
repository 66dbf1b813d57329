import { defineModule } from '../../../shared/module';
import { Assessment, AssessmentAttempt, CmeCredit, Course, Enrollment } from './training.entity';
import { CME_CREDIT_AWARDED, ENROLLMENT_COMPLETED } from './training.events';
import { AssessmentResolver, CmeCreditResolver, CourseResolver, EnrollmentResolver } from './training.resolver';

export default defineModule({
  name: 'training',
  description:
    'Courses with modules and CME credits, enrollments and progress, CME credits (awarded once) and their summary, scored assessments',
  entities: [Course, Enrollment, CmeCredit, Assessment, AssessmentAttempt],
  resolvers: [CourseResolver, EnrollmentResolver, CmeCreditResolver, AssessmentResolver],
  topics: [ENROLLMENT_COMPLETED, CME_CREDIT_AWARDED],
});
