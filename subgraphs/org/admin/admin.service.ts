import type { FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { requirePlatformPermission, requireUser } from '../../../shared/permissions';
import type { QueueCounts } from '../../../shared/plumbing';
import { appRedis } from '../../../shared/redis';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin } from '../../../shared/viewer';
import { SecurityEvent } from '../security/security-event.entity';
import { recordSecurityEvent } from '../security/security-log';
import { forgetUser } from '../users/identity';
import { revokeSessions } from '../users/sessions';
import { USER_ACCOUNT, User, UserStatus, type UserAccountAction } from '../users/user.entity';
import {
  HealthStatus,
  type DependencyCheck,
  type SecurityEventArgs,
  type SystemHealth,
  type UserListArgs,
  type UserTransitionArgs,
} from './admin.types';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

async function timed(name: string, probe: () => Promise<Partial<DependencyCheck> | void>): Promise<DependencyCheck> {
  const started = performance.now();
  try {
    const extra = await Promise.race([
      probe(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 2000 ms')), 2000).unref()),
    ]);
    return { name, ok: true, latencyMs: Math.round((performance.now() - started) * 100) / 100, ...(extra ?? {}) };
  } catch (err) {
    return { name, ok: false, latencyMs: Math.round(performance.now() - started), error: (err as Error).message };
  }
}

/** Platform administration: users and their status, and the health of what the platform depends on. */
export class AdminService {
  async listUsers(ctx: SubgraphContext, args: UserListArgs): Promise<PageResult<User>> {
    requirePlatformPermission(ctx.viewer, 'admin:users');
    const where: FilterQuery<User> = {};
    if (args.status) where.status = args.status;
    if (args.role) where.$or = [{ registrationRole: args.role }, { roles: { $overlap: [args.role] } }];
    if (args.search) {
      const like = `%${escapeLike(args.search.trim())}%`;
      where.$and = [{ $or: [{ email: { $ilike: like } }, { firstName: { $ilike: like } }, { lastName: { $ilike: like } }] }];
    }
    return paginate(ctx.em, User, where, args);
  }

  /** Suspending ends the user's sessions and rejects their tokens and API keys from the next request on. */
  async transition(ctx: SubgraphContext, args: UserTransitionArgs, action: UserAccountAction): Promise<User> {
    const admin = requirePlatformPermission(ctx.viewer, 'admin:users');
    const user = isUuid(args.id) ? await ctx.em.findOne(User, { id: args.id }) : null;
    if (!user) throw errors.notFound('User');
    if (user.id === admin.userId) throw errors.conflict('You cannot change the status of your own account');
    const from = user.status;
    const to = USER_ACCOUNT.next(from, action);
    if (from !== to) {
      user.status = to;
      const ended = to === UserStatus.suspended ? await revokeSessions(ctx.em, { userId: user.id }) : 0;
      recordSecurityEvent(ctx, {
        type: 'user_status_changed',
        userId: user.id,
        details: { from, to, reason: args.reason ?? null, sessions_ended: ended },
      });
      await ctx.em.flush();
      await forgetUser(user.id);
    }
    return user;
  }

  /** PostgreSQL, Redis and every queue the platform runs (the queue overview is handed in by the platform). */
  async health(ctx: SubgraphContext): Promise<SystemHealth> {
    requirePlatformPermission(ctx.viewer, 'admin:health');
    const overview = ctx.plumbing.queues;
    let counts: Promise<QueueCounts[]> | undefined;
    const queueCounts = () => (counts ??= overview ? overview.counts() : Promise.reject(new Error('no queue overview in this process')));
    const checks = await Promise.all([
      timed('postgres', async () => void (await ctx.em.getConnection().execute('select 1'))),
      timed('redis', async () => void (await appRedis().ping())),
      ...(overview?.names() ?? []).map((name) =>
        timed(`queue:${name}`, async () => {
          const { name: _name, ...c } = (await queueCounts()).find((q) => q.name === name)!;
          return { counts: c };
        }),
      ),
    ]);
    return { status: checks.every((c) => c.ok) ? HealthStatus.ok : HealthStatus.degraded, checks, checkedAt: clock.now() };
  }

  /** Security events: administrators see anyone's, others their own. */
  async securityEvents(ctx: SubgraphContext, args: SecurityEventArgs): Promise<PageResult<SecurityEvent>> {
    const viewer = requireUser(ctx.viewer);
    const where: FilterQuery<SecurityEvent> = {};
    if (isPlatformAdmin(viewer)) {
      requirePlatformPermission(viewer, 'admin:security-events');
      if (args.userId) where.userId = args.userId;
    } else {
      if (args.userId && args.userId !== viewer.userId) throw errors.forbidden('You can only see your own security events');
      where.userId = viewer.userId;
    }
    // A filter, not a value: a type the platform never records finds nothing (the REST query takes any text).
    if (args.type) where.type = args.type as SecurityEvent['type'];
    return paginate(ctx.em, SecurityEvent, where, args);
  }
}
