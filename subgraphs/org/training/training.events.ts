import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

export const ENROLLMENT_COMPLETED = defineTopic(
  'svc.training.enrollment_completed',
  'a member completes a course (progress reaches 100)',
  z.object({
    enrollment_id: z.uuid(),
    course_id: z.uuid(),
    organization_id: z.uuid(),
    user_id: z.uuid(),
    cme_credit_id: z.uuid().nullable(),
    credits: z.number(),
  }),
);

export const CME_CREDIT_AWARDED = defineTopic(
  'svc.training.cme_credit_awarded',
  'CME credits are awarded to a member (by a course completion or a manager)',
  z.object({
    cme_credit_id: z.uuid(),
    organization_id: z.uuid(),
    user_id: z.uuid(),
    credits: z.number(),
    category: z.string(),
    activity_date: z.iso.date(),
  }),
);
