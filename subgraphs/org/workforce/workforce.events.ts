import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

/** A manager asked for a roster to be generated: the solver job (a bus consumer) picks it up. */
export const ROSTER_GENERATION_REQUESTED = defineTopic(
  'svc.workforce.roster_generation_requested',
  'a manager asks for a roster to be generated',
  z.object({
    roster_id: z.uuid(),
    organization_id: z.uuid(),
    /** The request: a job for an older one, superseded since, does nothing. */
    generation_id: z.uuid(),
    requested_by: z.uuid(),
  }),
);

export const ROSTER_GENERATED = defineTopic(
  'svc.workforce.roster_generated',
  'the solver has stored a roster’s assignments',
  z.object({
    roster_id: z.uuid(),
    organization_id: z.uuid(),
    requirements_total: z.number().int(),
    requirements_met: z.number().int(),
    places_total: z.number().int(),
    places_filled: z.number().int(),
  }),
);

export const ROSTER_PUBLISHED = defineTopic(
  'svc.workforce.roster_published',
  'an approved roster is published to its members',
  z.object({
    roster_id: z.uuid(),
    organization_id: z.uuid(),
    start_date: z.iso.date(),
    end_date: z.iso.date(),
    published_by: z.uuid(),
  }),
);

export const SHIFT_SWAPPED = defineTopic(
  'svc.workforce.shift_swapped',
  'a swap request is accepted and applied',
  z.object({
    swap_request_id: z.uuid(),
    roster_id: z.uuid(),
    organization_id: z.uuid(),
    assignment_id: z.uuid(),
    target_assignment_id: z.uuid().nullable(),
    requester_member_id: z.uuid(),
    target_member_id: z.uuid(),
  }),
);

export const LEAVE_APPLIED_TO_ROSTERS = defineTopic(
  'svc.workforce.leave_applied_to_rosters',
  'approved leave has removed a member’s shifts from rosters (they become coverage gaps)',
  z.object({
    leave_request_id: z.uuid(),
    organization_id: z.uuid(),
    member_ids: z.array(z.uuid()),
    removed_assignment_ids: z.array(z.uuid()),
  }),
);
