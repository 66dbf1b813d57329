import type { FilterQuery } from '@mikro-orm/core';
import { auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { clock } from '../../../shared/clock';
import { errors, type FieldIssue } from '../../../shared/errors';
import { changedKeys, isUuid, paginate, patchFrom, type PageResult } from '../../../shared/model';
import { lockedChange } from '../../../shared/locked-change';
import { requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, readableScope, writableRow } from '../access/patient-rows';
import { ACTION_ITEM, ActionItem, ActionItemPriority, ActionItemStatus } from './action-item.entity';
import { Recording } from './recording.entity';
import type { ActionItemListArgs, CancelActionItemArgs, CreateActionItemInput, UpdateActionItemInput } from './sessions.types';

const RESOURCE = 'action_item';
const WHAT = 'Action item';

function checkIds(pairs: [string, string | null | undefined, string][]): void {
  const issues: FieldIssue[] = pairs.flatMap(([field, value, what]) =>
    value && !isUuid(value) ? [{ field, message: `must be ${what}` }] : [],
  );
  if (issues.length) throw errors.validation(issues);
}

export class ActionItemService {
  /** Clinicians who write the patient's clinical data create action items, for a patient or a recorded session. */
  async create(ctx: SubgraphContext, input: CreateActionItemInput): Promise<ActionItem> {
    checkIds([
      ['patientId', input.patientId, 'a patient id'],
      ['recordingId', input.recordingId, 'a recording id'],
      ['assigneeId', input.assigneeId, 'a user id'],
    ]);
    let recording: Recording | null = null;
    if (input.recordingId) {
      recording = await readableRow(ctx, Recording, input.recordingId, 'Recording');
      if (input.patientId && input.patientId !== recording.patientId)
        throw errors.invalidField('patientId', "must be the recording's patient");
    } else if (!input.patientId) {
      throw errors.invalidField('patientId', 'or recordingId is required');
    }
    const patient = await writablePatient(ctx, recording?.patientId ?? input.patientId!);
    const item = ctx.em.create(ActionItem, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      recordingId: recording?.id ?? null,
      title: input.title.trim(),
      description: input.description?.trim() ?? null,
      assigneeId: input.assigneeId ?? null,
      dueDate: input.dueDate ?? null,
      priority: input.priority ?? ActionItemPriority.normal,
      createdBy: ctx.viewer!.userId,
    });
    auditRowChange(ctx, 'create', RESOURCE, item, { assignee_id: item.assigneeId, due_date: item.dueDate });
    await ctx.em.flush();
    return item;
  }

  /**
   * Action items the caller may read (their organizations' and their own patient profiles', or one patient's), with
   * filters; soonest due first, those without a due date last.
   */
  async list(ctx: SubgraphContext, args: ActionItemListArgs): Promise<PageResult<ActionItem>> {
    const viewer = requireViewer(ctx.viewer);
    checkIds([
      ['patientId', args.patientId, 'a patient id'],
      ['recordingId', args.recordingId, 'a recording id'],
      ['assigneeId', args.assigneeId, 'a user id'],
    ]);
    const where: FilterQuery<ActionItem>[] = [];
    if (args.patientId) where.push({ patientId: (await readablePatient(ctx, args.patientId)).id });
    else {
      const scope = await readableScope<ActionItem>(ctx);
      if (!scope) return { items: [], total: 0, page: args.page, limit: args.limit };
      where.push(scope);
    }
    if (args.recordingId) where.push({ recordingId: args.recordingId });
    if (args.assigneeId) where.push({ assigneeId: args.assigneeId });
    if (args.mine) where.push({ assigneeId: viewer.userId });
    if (args.status) where.push({ status: args.status });
    if (args.dueBefore) where.push({ dueDate: { $lte: args.dueBefore } });
    const page = await paginate(ctx.em, ActionItem, { $and: where }, args, {
      dueDate: 'asc nulls last',
      createdAt: 'desc',
      id: 'asc',
    } as never);
    auditRowsRead(ctx, 'list', RESOURCE, page.items);
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<ActionItem> {
    const item = await readableRow(ctx, ActionItem, id, WHAT);
    auditRowsRead(ctx, 'read', RESOURCE, [item]);
    return item;
  }

  /**
   * Changes an open item; `status` moves it through the state machine (done, or open again from done). Reopening
   * comes before the other changes, marking done after them, so one request can do both.
   */
  async update(ctx: SubgraphContext, id: string, input: UpdateActionItemInput): Promise<ActionItem> {
    const found = await this.writable(ctx, id);
    const { status, ...fields } = input;
    checkIds([['assigneeId', fields.assigneeId, 'a user id']]);
    const patch = patchFrom(fields, ['title', 'priority']);
    if (patch.title) patch.title = patch.title.trim();
    if (typeof patch.description === 'string') patch.description = patch.description.trim();
    if (status === ActionItemStatus.cancelled)
      throw errors.invalidField('status', 'cannot be set to cancelled here: cancel the action item');
    return lockedChange(ctx, ActionItem, found.id, (tx, item) => {
      const target = status && status !== item.status ? (status === ActionItemStatus.done ? 'complete' : 'reopen') : undefined;
      if (target === 'reopen') this.move(tx, item, 'reopen');
      const changed = changedKeys(item, patch);
      if (changed.length) {
        item.status = ACTION_ITEM.next(item.status, 'edit');
        const previous = Object.fromEntries(changed.map((k) => [k, item[k] ?? null]));
        tx.em.assign(item, patch);
        auditRowChange(tx, 'update', RESOURCE, item, { fields: changed, previous });
      }
      if (target && target !== 'reopen') this.move(tx, item, target);
    });
  }

  /** Cancels an open item (kept, with who and why); cancelling twice is a 409. */
  async cancel(ctx: SubgraphContext, args: CancelActionItemArgs): Promise<ActionItem> {
    const found = await this.writable(ctx, args.id);
    return lockedChange(ctx, ActionItem, found.id, (tx, item) => {
      item.cancellationReason = args.reason?.trim() ?? null;
      this.move(tx, item, 'cancel');
    });
  }

  private move(tx: SubgraphContext, item: ActionItem, action: 'complete' | 'reopen' | 'cancel'): void {
    item.status = ACTION_ITEM.next(item.status, action);
    const by = tx.viewer!.userId;
    if (action === 'complete') Object.assign(item, { completedBy: by, completedAt: clock.now() });
    if (action === 'reopen') Object.assign(item, { completedBy: null, completedAt: null });
    if (action === 'cancel') Object.assign(item, { cancelledBy: by, cancelledAt: clock.now() });
    auditRowChange(tx, action, RESOURCE, item, {
      status: item.status,
      ...(action === 'cancel' ? { reason: item.cancellationReason } : {}),
    });
  }

  /** Clinical writers of the patient's data change action items. */
  private writable(ctx: SubgraphContext, id: string): Promise<ActionItem> {
    return writableRow(ctx, ActionItem, id, WHAT);
  }
}
