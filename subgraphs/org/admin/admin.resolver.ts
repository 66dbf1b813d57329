import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { RequiresPlatformPermission } from '../../../shared/requires-permission';
import type { SubgraphContext } from '../../../shared/subgraph';
import { transitionResolver } from '../../../shared/transitions';
import { USER_ACCOUNT, User } from '../users/user.entity';
import { AdminService } from './admin.service';
import { SecurityEventArgs, SecurityEventPage, SystemHealth, UserListArgs, UserPage, UserTransitionArgs } from './admin.types';

@Resolver()
export class AdminResolver {
  private readonly service = new AdminService();

  @RequiresPlatformPermission('admin:users')
  @Query(() => UserPage, { description: 'All users (SUPER:ADMIN)' })
  adminUsers(@Args() args: UserListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.listUsers(ctx, args);
  }

  @RequiresPlatformPermission('admin:health')
  @Query(() => SystemHealth, { description: 'PostgreSQL, Redis and queues, each with latency (SUPER:ADMIN)' })
  systemHealth(@Ctx() ctx: SubgraphContext) {
    return this.service.health(ctx);
  }

  @Query(() => SecurityEventPage, { description: 'Audit of security events; administrators see all, others their own' })
  securityEvents(@Args() args: SecurityEventArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.securityEvents(ctx, args);
  }
}

/** Platform administrators (SUPER:ADMIN) activate or suspend an account; suspension ends its sessions at once. */
export const UserAccountTransitionResolver = transitionResolver({
  type: () => User,
  machine: USER_ACCOUNT,
  args: UserTransitionArgs,
  run: (ctx, args, action) => new AdminService().transition(ctx, args, action),
  permission: 'admin:users',
  mutations: {
    activate: { name: 'activateUser', description: 'Let a suspended account sign in again (SUPER:ADMIN); an active one stays as it is' },
    suspend: {
      name: 'suspendUser',
      description: 'Suspend an account (SUPER:ADMIN): its sessions end and its tokens and API keys are refused',
    },
  },
});
