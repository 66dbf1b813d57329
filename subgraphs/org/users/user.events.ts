import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

export const USER_CREATED = defineTopic(
  'svc.auth.user_created',
  'a user registers (password or social login)',
  z.object({
    user_id: z.uuid(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    registration_role: z.string(),
  }),
);

export type UserCreatedPayload = z.infer<typeof USER_CREATED.payload>;
