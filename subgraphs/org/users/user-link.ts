import type { ClassType } from 'type-graphql';
import { idLinkFields } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { User } from './user.entity';
import { visibleUser } from './user.resolver';

/** A user field beside a user id of this subgraph's records: `{ bookedByUser: { id: 'bookedBy' } }`. */
export type UserFields<T> = Record<string, { id: keyof T & string; description?: string }>;

/**
 * A resolver giving `entity` a `User` field beside each of its user ids (`bookedBy` → `bookedByUser`), inside the
 * subgraph that owns users: batched (one query for every user of a response) and under the rule of `user(id)`
 * (`visibleUser`): null when there is no id or the caller may not see that user. What `referenceFields` does for
 * other subgraphs, which ask the gateway instead.
 */
export function userFields<T extends object>(entity: ClassType<T>, fields: UserFields<T>): ClassType {
  const links = Object.entries(fields).map(([field, link]) => [
    field,
    {
      id: link.id,
      type: User,
      description: link.description ?? `The user \`${link.id}\` names; null when there is none or the caller may not see it`,
      resolve: (id: string, ctx: SubgraphContext) => visibleUser(ctx, id),
    },
  ]);
  return idLinkFields(entity, 'UserLinks', Object.fromEntries(links));
}
