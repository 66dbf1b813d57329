import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

const day = z.iso.date();

/** A leave request approved; `member_id` is the member's user id, dates are YYYY-MM-DD (both days included). */
export const LEAVE_APPROVED = defineTopic(
  'svc.workforce.leave_approved',
  'a leave request is approved',
  z.object({
    leave_request_id: z.uuid(),
    organization_id: z.uuid(),
    member_id: z.uuid(),
    start_date: day,
    end_date: day,
    type: z.string(),
  }),
);

export type LeaveApprovedPayload = z.infer<typeof LEAVE_APPROVED.payload>;
