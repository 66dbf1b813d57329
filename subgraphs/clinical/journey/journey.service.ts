import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import type { PageArgs, PageResult } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { readablePatient, writablePatient } from '../access/patient-access';
import { auditChange, auditRead } from '../../../shared/audit/audit-trail';
import { patientDataSources, timelineOf, type TimelineEntry } from '../patient-data';
import type { Patient } from '../patients/patient.entity';
import { JourneyEvent, JourneyEventType } from './journey.entity';
import type { RecordJourneyEventInput } from './journey.types';

/** The care journey: recorded events and every other dated thing about the patient, newest first. */
export class JourneyService {
  async record(ctx: SubgraphContext, patientId: string, input: RecordJourneyEventInput): Promise<JourneyEvent> {
    const patient = await writablePatient(ctx, patientId, { allowSelf: true });
    const occurredAt = input.occurredAt ?? clock.now();
    if (occurredAt.getTime() > clock.nowMs() + 60_000) throw errors.invalidField('occurredAt', 'must not be in the future');
    const event = ctx.em.create(JourneyEvent, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      type: JourneyEventType[input.type],
      title: input.title.trim(),
      description: input.description ?? null,
      occurredAt,
      recordedBy: ctx.viewer!.userId,
    });
    auditChange(ctx, {
      action: 'create',
      resourceType: 'journey_event',
      resourceId: event.id,
      patientId: patient.id,
      organizationId: patient.organizationId,
    });
    await ctx.em.flush();
    return event;
  }

  /** Merges the newest entries of every source; a page needs at most page × limit entries from each. */
  async timeline(ctx: SubgraphContext, patientId: string, args: PageArgs): Promise<PageResult<TimelineEntry>> {
    return this.timelineOf(ctx, await readablePatient(ctx, patientId), args);
  }

  /** The journey of a patient the caller was allowed to read (`patientJourney`, `patient { journey }`). */
  async timelineOf(ctx: SubgraphContext, patient: Patient, args: PageArgs): Promise<PageResult<TimelineEntry>> {
    const sources = patientDataSources().filter((s) => s.timeline);
    const needed = args.page * args.limit;
    const [lists, counts] = await Promise.all([
      Promise.all(sources.map((s) => timelineOf(ctx.em, s, patient.id, needed))),
      Promise.all(sources.map((s) => ctx.em.count(s.entity, { patientId: patient.id, ...(s.where ?? {}) } as never))),
    ]);
    const merged = lists.flat().sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime() || a.resourceId.localeCompare(b.resourceId));
    auditRead(ctx, { action: 'list', resourceType: 'journey', patientId: patient.id, organizationId: patient.organizationId });
    return {
      items: merged.slice((args.page - 1) * args.limit, args.page * args.limit),
      total: counts.reduce((a, b) => a + b, 0),
      page: args.page,
      limit: args.limit,
    };
  }
}
