import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { errors } from '../../../shared/errors';
import { byIds, isUuid } from '../../../shared/model';
import { requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin } from '../../../shared/viewer';
import { OrganizationMember } from '../organizations/organization.entity';
import { RegistrationRole, signedInAs, User, UserStatus } from './user.entity';

/**
 * Who may see a user, as REST shows people: the user themself and platform administrators see the whole account
 * (`/api/auth/me`, `/api/admin/users`); a member of an organization the user belongs to sees who they are (id,
 * email, name), as in the organization's member list. Nobody else, API keys included: the user is null.
 */
export async function visibleUser(ctx: SubgraphContext, id: string): Promise<User | null> {
  const viewer = ctx.viewer;
  if (!viewer || viewer.apiKey || !isUuid(id)) return null;
  const user = await ctx.loader<string, User>('users', byIds(ctx.em, User)).load(id);
  if (!user) return null;
  if (user.id === viewer.userId || isPlatformAdmin(viewer)) return user;
  const organizations = viewer.memberships.map((m) => m.organizationId);
  if (!organizations.length) return null;
  const fellows = await ctx
    .loader<string, boolean>('users-in-my-organizations', async (ids) => {
      const rows = await ctx.em.find(
        OrganizationMember,
        { user: { $in: [...ids] }, organization: { $in: organizations } },
        { fields: ['user'] },
      );
      const found = new Set(rows.map((m) => m.user.id));
      return ids.map((uid) => found.has(uid));
    })
    .load(user.id);
  return fellows ? user : null;
}

/** The whole account: the user themself and platform administrators. */
const ownAccount = (ctx: SubgraphContext, user: User) =>
  signedInAs.has(user) || (!!ctx.viewer && !ctx.viewer.apiKey && (ctx.viewer.userId === user.id || isPlatformAdmin(ctx.viewer)));

const PRIVATE = 'Null for anyone but the user and platform administrators';

/** `user(id)` and `User` as an entity other subgraphs point at (`prescriber`, `recordedBy` ...). */
@Resolver(() => User)
export class UserResolver {
  @Query(() => User, {
    nullable: true,
    description:
      'A user: the caller, anyone for platform administrators, members of an organization the caller belongs to (id, email, name); otherwise null with NOT_FOUND',
  })
  async user(@Arg('id', () => ID, { description: 'The user id' }) id: string, @Ctx() ctx: SubgraphContext): Promise<User> {
    requireViewer(ctx.viewer);
    const user = await visibleUser(ctx, id);
    if (!user) throw errors.notFound('User');
    return user;
  }

  @FieldResolver(() => RegistrationRole, { nullable: true, description: `Role chosen at registration. ${PRIVATE}` })
  registrationRole(@Root() user: User, @Ctx() ctx: SubgraphContext): string | null {
    return ownAccount(ctx, user) ? user.registrationRole : null;
  }

  @FieldResolver(() => [String], { nullable: true, description: `Platform roles such as SUPER:ADMIN and APP:ADMIN. ${PRIVATE}` })
  roles(@Root() user: User, @Ctx() ctx: SubgraphContext): string[] | null {
    return ownAccount(ctx, user) ? user.roles : null;
  }

  @FieldResolver(() => UserStatus, { nullable: true, description: `Whether the account may sign in. ${PRIVATE}` })
  status(@Root() user: User, @Ctx() ctx: SubgraphContext): UserStatus | null {
    return ownAccount(ctx, user) ? user.status : null;
  }

  @FieldResolver(() => String, { nullable: true, description: `Code others give at registration. ${PRIVATE}` })
  referralCode(@Root() user: User, @Ctx() ctx: SubgraphContext): string | null {
    return ownAccount(ctx, user) ? user.referralCode : null;
  }

  @FieldResolver(() => String, { nullable: true, description: `The user whose referral code was given at registration. ${PRIVATE}` })
  referredBy(@Root() user: User, @Ctx() ctx: SubgraphContext): string | null {
    return ownAccount(ctx, user) ? (user.referredBy ?? null) : null;
  }

  @FieldResolver(() => Boolean, { nullable: true, description: `Whether sign-in asks for a TOTP code. ${PRIVATE}` })
  mfaEnabled(@Root() user: User, @Ctx() ctx: SubgraphContext): boolean | null {
    return ownAccount(ctx, user) ? user.mfaEnabled : null;
  }

  static resolveReference(reference: { id: string }, ctx: SubgraphContext) {
    return visibleUser(ctx, reference.id);
  }
}
