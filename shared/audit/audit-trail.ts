import { randomUUID } from 'node:crypto';
import type { FilterQuery } from '@mikro-orm/core';
import { clock } from '../clock';
import { config } from '../config';
import type { EntityManager } from '../db';
import { logger } from '../logger';
import type { SubgraphContext } from '../subgraph';
import { AuditEvent } from './audit-event.entity';

interface PgClient {
  query(sql: string, params: unknown[]): Promise<unknown>;
}

export interface AuditEntry {
  action: string;
  resourceType: string;
  resourceId?: string | null;
  patientId?: string | null;
  organizationId?: string | null;
  details?: Record<string, unknown>;
  /** A list read: the records shown (resourceId null). */
  resourceIds?: string[] | null;
  /** A list read of several patients: each patient shown (patientId null). */
  patientIds?: string[] | null;
}

const FLUSH_AFTER_MS = 50;
const FLUSH_AT = 500;
const MAX_BUFFER = 50_000;

function row(ctx: SubgraphContext, e: AuditEntry): Partial<AuditEvent> {
  const v = ctx.viewer;
  const now = clock.now();
  return {
    id: randomUUID(),
    action: e.action,
    resourceType: e.resourceType,
    resourceId: e.resourceId ?? null,
    resourceIds: e.resourceIds ?? null,
    patientId: e.patientId ?? null,
    patientIds: e.patientIds ?? null,
    organizationId: e.organizationId ?? null,
    actorId: v?.system ? null : (v?.userId ?? null),
    actorType: v?.apiKey ? 'api_key' : v?.system ? 'system' : v ? 'user' : 'anonymous',
    apiKeyId: v?.apiKey?.id ?? null,
    ip: ctx.ip ?? null,
    userAgent: ctx.userAgent?.slice(0, 500) ?? null,
    requestId: ctx.requestId ?? null,
    details: e.details ?? {},
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Reads are audited without waiting for the database: entries gather in memory and are written in one INSERT every
 * 50 ms (or at 500 entries), and on shutdown. A failed write is kept and tried again. Changes are audited in the
 * transaction that makes them (`auditChange`), so they are never lost.
 */
class AuditTrail {
  private buffer: Partial<AuditEvent>[] = [];
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(private readonly root: EntityManager) {}

  push(entry: Partial<AuditEvent>): void {
    if (this.buffer.length >= MAX_BUFFER) this.buffer.shift();
    this.buffer.push(entry);
    if (this.buffer.length >= FLUSH_AT) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
    if (!this.buffer.length) return;
    const batch = this.buffer;
    this.buffer = [];
    this.flushing = insertBatch(this.root, batch).catch((err) => {
      logger.error({ err: (err as Error).message, entries: batch.length }, 'could not write read audit; will retry');
      this.buffer = [...batch, ...this.buffer].slice(-MAX_BUFFER);
      this.timer ??= setTimeout(() => void this.flush(), 1000);
    });
    await this.flushing;
  }
}

/** Columns of audit_events and their PostgreSQL types, for the batch insert. */
const COLUMNS: [keyof AuditEvent, string, string][] = [
  ['id', 'id', 'uuid'],
  ['action', 'action', 'text'],
  ['resourceType', 'resource_type', 'text'],
  ['resourceId', 'resource_id', 'text'],
  ['resourceIds', 'resource_ids', 'text[]'],
  ['patientId', 'patient_id', 'uuid'],
  ['patientIds', 'patient_ids', 'text[]'],
  ['organizationId', 'organization_id', 'uuid'],
  ['actorId', 'actor_id', 'uuid'],
  ['actorType', 'actor_type', 'text'],
  ['apiKeyId', 'api_key_id', 'uuid'],
  ['ip', 'ip', 'text'],
  ['userAgent', 'user_agent', 'text'],
  ['requestId', 'request_id', 'text'],
  ['details', 'details', 'jsonb'],
  ['createdAt', 'created_at', 'timestamptz'],
  ['updatedAt', 'updated_at', 'timestamptz'],
];

/** A PostgreSQL array literal of strings, each element quoted. */
function arrayLiteral(values: unknown[]): string {
  return `{${values.map((v) => `"${String(v).replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
}

/**
 * One INSERT ... SELECT FROM unnest(...) per batch: one parameter per column whatever the batch size, so a batch of
 * 500 reads costs the database one short statement instead of 7,500 bound parameters.
 */
async function insertBatch(em: EntityManager, batch: Partial<AuditEvent>[]): Promise<void> {
  const schema = em.config.get('schema');
  const params = COLUMNS.map(([prop, , type]) =>
    batch.map((row) => {
      const v = row[prop];
      if (type === 'jsonb') return JSON.stringify(v ?? {});
      if (type.endsWith('[]')) return Array.isArray(v) ? arrayLiteral(v) : null;
      return v instanceof Date ? v.toISOString() : (v ?? null);
    }),
  );
  const columns = COLUMNS.map(([, column]) => `"${column}"`).join(', ');
  // jsonb and array columns travel as text (an array of arrays would not unnest row by row) and are cast back.
  const asText = (type: string) => type === 'jsonb' || type.endsWith('[]');
  const arrays = COLUMNS.map(([, , type], i) => `$${i + 1}::${asText(type) ? 'text' : type}[]`).join(', ');
  const select = COLUMNS.map(([, column, type]) => (asText(type) ? `"${column}"::${type}` : `"${column}"`)).join(', ');
  const sql = `insert into "${schema}"."audit_events" (${columns}) select ${select} from unnest(${arrays}) as t(${columns})`;
  // The pool's own pg client: it binds arrays as PostgreSQL arrays (the query builder would expand them).
  const client = em.getConnection().getKnex().client as {
    acquireConnection(): Promise<PgClient>;
    releaseConnection(c: PgClient): Promise<void>;
  };
  const conn = await client.acquireConnection();
  try {
    await conn.query(sql, params);
  } finally {
    await client.releaseConnection(conn);
  }
}

/** One trail per database (several platforms may run in one process, as in tests). */
const trails = new WeakMap<object, AuditTrail>();

function trailOf(em: EntityManager): AuditTrail {
  let trail = trails.get(em.config);
  if (!trail) {
    trail = new AuditTrail(em.fork({ clear: true }));
    trails.set(em.config, trail);
  }
  return trail;
}

/** Records reads of patient data; cheap (buffered). */
export function auditRead(ctx: SubgraphContext, entries: AuditEntry | AuditEntry[]): void {
  if (!config().READ_AUDIT) return;
  const trail = trailOf(ctx.em);
  for (const e of Array.isArray(entries) ? entries : [entries]) trail.push(row(ctx, e));
}

/** A row of a patient's data, as the audit trail names it. */
export interface PatientRow {
  id: string;
  patientId: string;
  organizationId?: string | null;
}

/**
 * Records reads of rows of patient data: `read` of one row is one entry; a `list` (a page, search results) is ONE
 * entry for the request naming the rows it showed (`resourceIds`, in order) and their patients (`patientId` when
 * they are all one patient's, else `patientIds`), so a page of 20 costs one audit row, not 20.
 */
export function auditRowsRead(ctx: SubgraphContext, action: string, resourceType: string, rows: PatientRow[]): void {
  if (action === 'list') return auditListRead(ctx, resourceType, rows);
  auditRead(
    ctx,
    rows.map((r) => ({ action, resourceType, resourceId: r.id, patientId: r.patientId, organizationId: r.organizationId })),
  );
}

/** One `list` entry for a page of rows (see auditRowsRead); an empty page is not a read of anyone's data. */
export function auditListRead(ctx: SubgraphContext, resourceType: string, rows: PatientRow[]): void {
  if (!rows.length) return;
  const patients = [...new Set(rows.map((r) => r.patientId))];
  const organizations = [...new Set(rows.map((r) => r.organizationId ?? null))];
  auditRead(ctx, {
    action: 'list',
    resourceType,
    resourceIds: rows.map((r) => r.id),
    patientId: patients.length === 1 ? patients[0] : null,
    patientIds: patients.length === 1 ? null : patients,
    organizationId: organizations.length === 1 ? organizations[0] : null,
  });
}

/** Records a read of a patient's data as a whole (a list, a schedule), with what was shown in `details`. */
export function auditPatientRead(
  ctx: SubgraphContext,
  action: string,
  resourceType: string,
  patient: { id: string; organizationId?: string | null },
  details: Record<string, unknown>,
): void {
  auditRead(ctx, { action, resourceType, patientId: patient.id, organizationId: patient.organizationId, details });
}

/** Records a change of a row of patient data, with the caller's next flush. */
export function auditRowChange(
  ctx: SubgraphContext,
  action: string,
  resourceType: string,
  row: PatientRow,
  details: Record<string, unknown> = {},
): void {
  auditChange(ctx, { action, resourceType, resourceId: row.id, patientId: row.patientId, organizationId: row.organizationId, details });
}

/** Records a change with the next flush of `em` (the request's, or a transaction's), in the same transaction as the change. */
export function auditChange(ctx: SubgraphContext, entry: AuditEntry, em: EntityManager = ctx.em): AuditEvent {
  return em.create(AuditEvent, row(ctx, entry) as AuditEvent);
}

/** Events about a patient: theirs alone, or a list read that showed them among others. */
export function auditOfPatient(patientId: string): FilterQuery<AuditEvent> {
  return { $or: [{ patientId }, { patientIds: { $contains: [patientId] } }] };
}

/** Events about a record: of it alone, or a list read that showed it. */
export function auditOfResource(resourceId: string): FilterQuery<AuditEvent> {
  return { $or: [{ resourceId }, { resourceIds: { $contains: [resourceId] } }] };
}

/** Writes buffered read audits now (before answering an audit query, and on shutdown). */
export async function flushAudit(em: EntityManager): Promise<void> {
  await trails.get(em.config)?.flush();
}
