import { UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '../../../shared/db';
import { errors, type FieldIssue } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { organizationScope, recordInScope } from './access';
import { skillSet } from './member.service';
import { Roster } from './roster.entity';
import { isNightShift, minuteOfDay, shiftLength } from './rules';
import { CoverageRequirement, ShiftType, type DayOfWeek } from './shift-type.entity';
import type {
  CoverageListArgs,
  CreateCoverageRequirementInput,
  CreateShiftTypeInput,
  OrganizationPageArgs,
  RosterCoverageInput,
  SkillRequirementInput,
} from './workforce.types';

const duplicateRequirement = () => errors.duplicate('A coverage requirement for this shift type and day already exists here');

/**
 * Per-skill minimums as stored: lower case, each skill once, none above the shift's minimum staff (`path` names the
 * input field in errors).
 */
export function skillRequirementsOf(minStaff: number, list: readonly SkillRequirementInput[] | null | undefined, path: string) {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  const out = (list ?? []).map((r, i) => {
    const skill = r.skill.toLowerCase();
    if (seen.has(skill)) issues.push({ field: `${path}[${i}].skill`, message: 'is listed twice' });
    if (r.minStaff > minStaff)
      issues.push({ field: `${path}[${i}].minStaff`, message: `must not exceed the shift's min_staff (${minStaff})` });
    seen.add(skill);
    return { skill, minStaff: r.minStaff };
  });
  if (issues.length) throw errors.validation(issues);
  return out;
}

/** Shift types and coverage requirements of an organization. Managers write them; every member reads them. */
export class ShiftService {
  async createShiftType(ctx: SubgraphContext, input: CreateShiftTypeInput): Promise<ShiftType> {
    const { organizationId } = await organizationScope(ctx, input.organizationId, 'workforce:manage');
    const { minutes, crossesMidnight } = shiftLength(input.startTime, input.endTime);
    if (input.crossesMidnight !== undefined && input.crossesMidnight !== null && input.crossesMidnight !== crossesMidnight) {
      throw errors.invalidField(
        'crossesMidnight',
        crossesMidnight
          ? 'must be true: the end is at or before the start, on the next day'
          : 'must be false: the end is after the start on the same day',
      );
    }
    if (input.skillRequirements?.length && input.minStaff === undefined)
      throw errors.invalidField('minStaff', 'is required with skill_requirements');
    const skillRequirements =
      input.minStaff !== undefined ? skillRequirementsOf(input.minStaff, input.skillRequirements, 'skillRequirements') : [];
    return ctx.em
      .transactional(async (em) => {
        const type = em.create(ShiftType, {
          organizationId,
          name: input.name.trim(),
          startTime: input.startTime,
          endTime: input.endTime,
          crossesMidnight,
          durationMinutes: minutes,
          isNight: isNightShift(minuteOfDay(input.startTime), minutes),
          requiredSkills: skillSet(input.requiredSkills),
        });
        if (input.minStaff !== undefined) {
          em.create(CoverageRequirement, {
            organizationId,
            rosterId: null,
            shiftTypeId: type.id,
            dayOfWeek: null,
            minStaff: input.minStaff,
            skillRequirements,
          });
        }
        await em.flush();
        return type;
      })
      .catch((err) => {
        throw err instanceof UniqueConstraintViolationException
          ? errors.duplicate(`A shift type named ${input.name.trim()} already exists`)
          : err;
      });
  }

  async listShiftTypes(ctx: SubgraphContext, args: OrganizationPageArgs): Promise<PageResult<ShiftType>> {
    const { organizationId } = await organizationScope(ctx, args.organizationId, 'workforce:read');
    return paginate(ctx.em, ShiftType, { organizationId }, args, { startTime: 'asc', name: 'asc', id: 'asc' });
  }

  async getShiftType(ctx: SubgraphContext, id: string): Promise<ShiftType> {
    return (await recordInScope(ctx, ShiftType, id, 'workforce:read', 'Shift type')).record;
  }

  async createRequirement(ctx: SubgraphContext, input: CreateCoverageRequirementInput): Promise<CoverageRequirement> {
    const { organizationId } = await organizationScope(ctx, input.organizationId, 'workforce:manage');
    if (input.rosterId) {
      const roster = isUuid(input.rosterId) ? await ctx.em.findOne(Roster, { id: input.rosterId, organizationId }) : null;
      if (!roster) throw errors.notFound('Roster');
    }
    const [requirement] = await this.addRequirements(ctx.em, organizationId, input.rosterId ?? null, [input], '');
    return requirement;
  }

  /** Stores requirements (of the organization, or of a roster), checking their shift types belong to it. */
  async addRequirements(
    em: EntityManager,
    organizationId: string,
    rosterId: string | null,
    list: readonly RosterCoverageInput[],
    path: string,
  ): Promise<CoverageRequirement[]> {
    const at = (i: number, field: string) => (path ? `${path}[${i}].${field}` : field);
    const ids = [...new Set(list.map((r) => r.shiftTypeId))];
    const bad = list.findIndex((r) => !isUuid(r.shiftTypeId));
    if (bad >= 0) throw errors.invalidField(at(bad, 'shiftTypeId'), 'must be a UUID');
    const known = new Set((await em.find(ShiftType, { id: { $in: ids }, organizationId })).map((t) => t.id));
    const unknown = list.findIndex((r) => !known.has(r.shiftTypeId));
    if (unknown >= 0) {
      if (!path) throw errors.notFound('Shift type');
      throw errors.invalidField(at(unknown, 'shiftTypeId'), 'names no shift type of the organization');
    }
    const keys = list.map((r) => `${r.shiftTypeId}/${r.dayOfWeek ?? 'every_day'}`);
    const twice = keys.findIndex((k, i) => keys.indexOf(k) !== i);
    if (twice >= 0) throw errors.invalidField(at(twice, 'dayOfWeek'), 'repeats a shift type and day already listed');
    const rows = list.map((r, i) =>
      em.create(CoverageRequirement, {
        organizationId,
        rosterId,
        shiftTypeId: r.shiftTypeId,
        dayOfWeek: (r.dayOfWeek ?? null) as DayOfWeek | null,
        minStaff: r.minStaff,
        skillRequirements: skillRequirementsOf(r.minStaff, r.skillRequirements, at(i, 'skillRequirements')),
      }),
    );
    await em.flush().catch((err) => {
      throw err instanceof UniqueConstraintViolationException ? duplicateRequirement() : err;
    });
    return rows;
  }

  async listRequirements(ctx: SubgraphContext, args: CoverageListArgs): Promise<PageResult<CoverageRequirement>> {
    const { organizationId } = await organizationScope(ctx, args.organizationId, 'workforce:read');
    const where: FilterQuery<CoverageRequirement> = { organizationId };
    if (args.rosterId) {
      if (!isUuid(args.rosterId)) throw errors.invalidField('rosterId', 'must be a UUID');
      where.rosterId = args.rosterId;
    }
    if (args.shiftTypeId) {
      if (!isUuid(args.shiftTypeId)) throw errors.invalidField('shiftTypeId', 'must be a UUID');
      where.shiftTypeId = args.shiftTypeId;
    }
    return paginate(ctx.em, CoverageRequirement, where, args, { createdAt: 'asc', id: 'asc' });
  }
}
