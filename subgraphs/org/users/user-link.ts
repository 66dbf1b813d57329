import { Ctx, FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
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
  @Resolver(() => entity)
  class UserLinks {}
  for (const [name, link] of Object.entries(fields)) {
    Object.defineProperty(UserLinks.prototype, name, {
      value: (root: T, ctx: SubgraphContext) => {
        const id = root[link.id] as string | null | undefined;
        return id ? visibleUser(ctx, id) : null;
      },
      writable: true,
      configurable: true,
    });
    Root()(UserLinks.prototype, name, 0);
    Ctx()(UserLinks.prototype, name, 1);
    const description = link.description ?? `The user \`${link.id}\` names; null when there is none or the caller may not see it`;
    FieldResolver(() => User, { nullable: true, description })(
      UserLinks.prototype,
      name,
      Object.getOwnPropertyDescriptor(UserLinks.prototype, name)!,
    );
  }
  Object.defineProperty(UserLinks, 'name', { value: `${entity.name}UserLinks` });
  return UserLinks;
}
