import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { User } from '../users/user.entity';
import { AdminService } from './admin.service';
import { SecurityEventArgs, SecurityEventPage, SystemHealth, UserListArgs, UserPage, UserStatusArgs } from './admin.types';

@Resolver()
export class AdminResolver {
  private readonly service = new AdminService();

  @Query(() => UserPage, { description: 'All users (SUPER:ADMIN)' })
  adminUsers(@Args() args: UserListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.listUsers(ctx, args);
  }

  @Mutation(() => User, { description: 'Activate or suspend a user (SUPER:ADMIN); suspension ends their sessions' })
  setUserStatus(@Args() args: UserStatusArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.setStatus(ctx, args);
  }

  @Query(() => SystemHealth, { description: 'PostgreSQL, Redis and queues, each with latency (SUPER:ADMIN)' })
  systemHealth(@Ctx() ctx: SubgraphContext) {
    return this.service.health(ctx);
  }

  @Query(() => SecurityEventPage, { description: 'Audit of security events; administrators see all, others their own' })
  securityEvents(@Args() args: SecurityEventArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.securityEvents(ctx, args);
  }
}
