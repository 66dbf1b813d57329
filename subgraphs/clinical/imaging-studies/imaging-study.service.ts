import type { FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, readableScope, writableRow } from '../access/patient-rows';
import { auditPatientRead, auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { ImagingOrder } from '../imaging/imaging-order.entity';
import { lockedChange } from '../../../shared/locked-change';
import { serviceRequestOfPatient } from '../service-requests/service-request.service';
import {
  IMAGING_STUDY,
  INITIAL_IMAGING_STUDY_STATUSES,
  ImagingStudy,
  ImagingStudyStatus,
  type ImagingStudyAction,
} from './imaging-study.entity';
import type { CreateImagingStudyInput, ImagingStudyListArgs, ImagingStudyTransitionArgs } from './imaging-study.types';

const RESOURCE = 'imaging_study';
const WHAT = 'Imaging study';
const hidden = (s: ImagingStudy) => s.status === ImagingStudyStatus.entered_in_error;
/** The statuses `PATCH .../status` may ask for: those some transition leads to. */

export class ImagingStudyService {
  async create(ctx: SubgraphContext, input: CreateImagingStudyInput): Promise<ImagingStudy> {
    const status = input.status ?? ImagingStudyStatus.registered;
    if (!(INITIAL_IMAGING_STUDY_STATUSES as readonly ImagingStudyStatus[]).includes(status)) {
      throw errors.invalidField('status', `must be ${INITIAL_IMAGING_STUDY_STATUSES.join(' or ')} for a new imaging study`);
    }
    const patient = await writablePatient(ctx, input.patientId);
    if (input.imagingOrderId != null) {
      const order = isUuid(input.imagingOrderId) ? await ctx.em.findOne(ImagingOrder, { id: input.imagingOrderId }) : null;
      if (!order || order.patientId !== patient.id)
        throw errors.invalidField('imagingOrderId', 'must be an imaging order of the same patient');
    }
    if (input.serviceRequestId != null) await serviceRequestOfPatient(ctx, input.serviceRequestId, patient.id, 'serviceRequestId');
    if (input.studyInstanceUid) await this.checkUidFree(ctx, input.studyInstanceUid);
    const study = ctx.em.create(ImagingStudy, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      imagingOrderId: input.imagingOrderId ?? null,
      serviceRequestId: input.serviceRequestId ?? null,
      modality: input.modality,
      bodyPart: input.bodyPart?.trim() ?? null,
      description: input.description?.trim() ?? null,
      studyInstanceUid: input.studyInstanceUid ?? null,
      numberOfSeries: input.numberOfSeries ?? null,
      numberOfInstances: input.numberOfInstances ?? null,
      startedAt: input.startedAt ?? null,
      status,
      recordedBy: ctx.viewer!.userId,
    });
    auditRowChange(ctx, 'create', RESOURCE, study, { modality: study.modality, study_instance_uid: study.studyInstanceUid, status });
    await ctx.em.flush();
    return study;
  }

  /** One patient's (any patient the caller may read), or those of the caller's organizations and own profiles. */
  async list(ctx: SubgraphContext, args: ImagingStudyListArgs): Promise<PageResult<ImagingStudy>> {
    const filters: FilterQuery<ImagingStudy>[] = [{ status: { $ne: ImagingStudyStatus.entered_in_error } }];
    if (args.status) filters.push({ status: args.status });
    if (args.modality) filters.push({ modality: args.modality });
    if (args.patientId) {
      const patient = await readablePatient(ctx, args.patientId);
      const page = await paginate(ctx.em, ImagingStudy, { $and: [{ patientId: patient.id }, ...filters] }, args);
      auditPatientRead(ctx, 'list', RESOURCE, patient, { count: page.items.length });
      return page;
    }
    const scope = await readableScope<ImagingStudy>(ctx);
    if (!scope) return { items: [], total: 0, page: args.page, limit: args.limit };
    const page = await paginate(ctx.em, ImagingStudy, { $and: [scope, ...filters] }, args);
    auditRowsRead(ctx, 'list', RESOURCE, page.items);
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<ImagingStudy> {
    const study = await readableRow(ctx, ImagingStudy, id, WHAT, hidden);
    auditRowsRead(ctx, 'read', RESOURCE, [study]);
    return study;
  }

  /** Moves the study on by an action of its machine (409 when its status does not allow it). */
  async transition(ctx: SubgraphContext, args: ImagingStudyTransitionArgs, action: ImagingStudyAction): Promise<ImagingStudy> {
    const found = await writableRow(ctx, ImagingStudy, args.id, WHAT, { hidden });
    return lockedChange(ctx, ImagingStudy, found.id, (tx, study) => {
      if (hidden(study)) throw errors.notFound(WHAT);
      const from = study.status;
      study.status = IMAGING_STUDY.next(from, action);
      study.statusReason = args.reason?.trim() ?? null;
      study.statusChangedAt = clock.now();
      study.statusChangedBy = tx.viewer!.userId;
      auditRowChange(tx, action, RESOURCE, study, { status: { from, to: study.status }, reason: study.statusReason });
    });
  }

  /**
   * A Study Instance UID names one study: a second study under it is a 409 (one entered in error does not count).
   * The unique index settles two registrations at the same moment.
   */
  private async checkUidFree(ctx: SubgraphContext, uid: string): Promise<void> {
    const taken = await ctx.em.count(ImagingStudy, { studyInstanceUid: uid, status: { $ne: ImagingStudyStatus.entered_in_error } });
    if (taken) throw errors.duplicate(`An imaging study with Study Instance UID ${uid} already exists`);
  }
}
