import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

export const MEMBER_ADDED = defineTopic(
  'svc.organization.member_added',
  'a member joins an organization (its creator, an accepted invitation, a doctor joining)',
  z.object({ organization_id: z.uuid(), user_id: z.uuid(), role: z.string() }),
);

export type MemberAddedPayload = z.infer<typeof MEMBER_ADDED.payload>;
