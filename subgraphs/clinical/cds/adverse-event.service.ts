import type { FilterQuery } from '@mikro-orm/core';
import { errors } from '../../../shared/errors';
import { paginate, type PageResult } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import type { SubgraphContext } from '../../../shared/subgraph';
import { auditPatientRead, auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, readableScope } from '../access/patient-rows';
import { AdverseEvent, AdverseEventOutcome, SeriousnessCriterion } from './cds.entity';
import { ADVERSE_EVENT_REPORTED } from './cds.events';
import type { AdverseEventListArgs, ReportAdverseEventInput } from './cds.types';
import { resolveMedication } from './drug-knowledge';

const RESOURCE = 'adverse_event';
const WHAT = 'Adverse event';
const NEWEST_FIRST = { createdAt: 'desc', id: 'asc' } as const;

export class AdverseEventService {
  /** Clinicians of the patient's organization, or the patient themselves, report a suspected reaction. */
  async report(ctx: SubgraphContext, input: ReportAdverseEventInput): Promise<AdverseEvent> {
    const patient = await writablePatient(ctx, input.patientId, { allowSelf: true });
    const criteria = [...new Set(input.seriousnessCriteria ?? [])];
    if (input.outcome === AdverseEventOutcome.fatal && !criteria.includes(SeriousnessCriterion.death)) {
      throw errors.invalidField('seriousnessCriteria', 'must include death when the outcome is fatal (ICH E2A)');
    }
    if (criteria.includes(SeriousnessCriterion.death) && input.outcome !== AdverseEventOutcome.fatal) {
      throw errors.invalidField('outcome', 'must be fatal when death is a seriousness criterion');
    }
    const drug = resolveMedication(0, input.suspectedDrug, input.rxcui);
    const event = ctx.em.create(AdverseEvent, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      suspectedDrug: input.suspectedDrug.trim(),
      rxcui: input.rxcui?.trim() || null,
      ingredients: drug.ingredients.map((i) => i.key),
      reaction: input.reaction.trim(),
      onsetDate: input.onsetDate ?? null,
      seriousnessCriteria: criteria,
      serious: criteria.length > 0,
      severity: input.severity ?? null,
      outcome: input.outcome,
      causality: input.causality ?? null,
      actionTaken: input.actionTaken ?? null,
      description: input.description?.trim() ?? null,
      reportedBy: ctx.viewer!.userId,
    });
    auditRowChange(ctx, 'create', RESOURCE, event, { serious: event.serious, outcome: event.outcome });
    emitEvent(ctx.em, 'clinical', ADVERSE_EVENT_REPORTED, {
      adverse_event_id: event.id,
      patient_id: event.patientId,
      organization_id: event.organizationId ?? null,
      suspected_drug: event.suspectedDrug,
      reaction: event.reaction,
      serious: event.serious,
      seriousness_criteria: event.seriousnessCriteria,
      outcome: event.outcome,
    });
    await ctx.em.flush();
    return event;
  }

  /** One patient's reports, or those of the caller's organizations and own profiles; newest first. */
  async list(ctx: SubgraphContext, args: AdverseEventListArgs): Promise<PageResult<AdverseEvent>> {
    const filter: FilterQuery<AdverseEvent> = args.serious === undefined || args.serious === null ? {} : { serious: args.serious };
    if (args.patientId) {
      const patient = await readablePatient(ctx, args.patientId);
      const page = await paginate(ctx.em, AdverseEvent, { patientId: patient.id, ...filter }, args, NEWEST_FIRST);
      auditPatientRead(ctx, 'list', RESOURCE, patient, { count: page.items.length });
      return page;
    }
    const scope = await readableScope<AdverseEvent>(ctx);
    if (!scope) return { items: [], total: 0, page: args.page, limit: args.limit };
    const page = await paginate<AdverseEvent>(ctx.em, AdverseEvent, { $and: [scope, filter] }, args, NEWEST_FIRST);
    auditRowsRead(ctx, 'list', RESOURCE, page.items);
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<AdverseEvent> {
    const event = await readableRow(ctx, AdverseEvent, id, WHAT);
    auditRowsRead(ctx, 'read', RESOURCE, [event]);
    return event;
  }
}
