import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { OrganizationMember } from '../organizations/organization.entity';
import { User } from '../users/user.entity';
import { organizationScope, recordInScope } from './access';
import { WorkforceMember } from './member.entity';
import type { CreateWorkforceMemberInput, MemberListArgs } from './workforce.types';

const WHAT = 'Workforce member';

/** Lower case, each once, in the order given. */
export const skillSet = (skills: readonly string[] | null | undefined): string[] => [
  ...new Set((skills ?? []).map((s) => s.toLowerCase())),
];

/** The staff an organization rosters. Managers (workforce:manage) add them; every member reads them. */
export class MemberService {
  async create(ctx: SubgraphContext, input: CreateWorkforceMemberInput): Promise<WorkforceMember> {
    const { viewer, organizationId } = await organizationScope(ctx, input.organizationId, 'workforce:manage');
    let name = input.name?.trim();
    let email = input.email?.toLowerCase() ?? null;
    if (input.userId) {
      if (!isUuid(input.userId)) throw errors.invalidField('userId', 'must be a UUID');
      const membership = await ctx.em.findOne(OrganizationMember, { organization: organizationId, user: input.userId });
      if (!membership) throw errors.invalidField('userId', 'must be a member of the organization');
      const user = await ctx.em.findOneOrFail(User, { id: input.userId });
      name ||= `${user.firstName} ${user.lastName}`.trim();
      email = user.email;
    } else if (!name) {
      throw errors.invalidField('name', 'is required for staff without a user_id');
    }
    const member = ctx.em.create(WorkforceMember, {
      organizationId,
      userId: input.userId ?? null,
      name: name!,
      email,
      role: input.role.trim(),
      contractedHoursPerWeek: input.contractedHoursPerWeek,
      skills: skillSet(input.skills),
      nightEligible: input.nightEligible ?? true,
      weekendEligible: input.weekendEligible ?? true,
      createdBy: viewer.apiKey ? null : viewer.userId,
    });
    await ctx.em.flush().catch((err) => {
      throw err instanceof UniqueConstraintViolationException
        ? errors.duplicate('This user is already a workforce member of the organization')
        : err;
    });
    return member;
  }

  async list(ctx: SubgraphContext, args: MemberListArgs): Promise<PageResult<WorkforceMember>> {
    const { organizationId } = await organizationScope(ctx, args.organizationId, 'workforce:read');
    const where = { organizationId, ...(args.skill ? { skills: { $contains: [args.skill.toLowerCase()] } } : {}) };
    return paginate(ctx.em, WorkforceMember, where, args, { name: 'asc', id: 'asc' });
  }

  async get(ctx: SubgraphContext, id: string): Promise<WorkforceMember> {
    return (await recordInScope(ctx, WorkforceMember, id, 'workforce:read', WHAT)).record;
  }

  /** Members by id for a DataLoader, within the caller's view (the parent record was already checked). */
  load(ctx: SubgraphContext, id: string): Promise<WorkforceMember | null> {
    return ctx
      .loader<string, WorkforceMember>('workforce-member', async (ids) => {
        const rows = await ctx.em.find(WorkforceMember, { id: { $in: [...ids] } });
        const by = new Map(rows.map((r) => [r.id, r]));
        return ids.map((i) => by.get(i) ?? null);
      })
      .load(id);
  }
}
