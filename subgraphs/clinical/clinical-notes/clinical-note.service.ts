import { wrap, type FilterQuery } from '@mikro-orm/core';
import { auditPatientRead, auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { clock } from '../../../shared/clock';
import { keysetConnection, windowOf, type Connection, type ConnectionArgs, type KeysetList } from '../../../shared/connection';
import { can } from '../../../shared/permissions';
import { errors, type FieldIssue } from '../../../shared/errors';
import { changedKeys, isUuid, MAX_PAGE_SIZE, paginate, patchFrom, type PageResult } from '../../../shared/model';
import { lockedChange } from '../../../shared/locked-change';
import { emitEvent } from '../../../shared/outbox';
import type { SubgraphContext } from '../../../shared/subgraph';
import { accessBasis, loadPatient, readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, writableRow } from '../access/patient-rows';
import { requireAppointmentOf } from '../clinical-sessions/appointment-ref';
import { Recording } from '../clinical-sessions/recording.entity';
import { ClinicalRecord } from '../clinical-records/clinical-record.entity';
import type { Patient } from '../patients/patient.entity';
import { ClinicalNote, ClinicalNoteVersion, NOTE, NoteFormat, NoteStatus, SOAP_SECTIONS, type SoapSection } from './clinical-note.entity';
import { NOTE_SIGNED } from './clinical-note.events';
import type { CreateClinicalNoteInput, PatientNoteListArgs, UpdateClinicalNoteInput } from './clinical-note.types';

const RESOURCE = 'clinical_note';
const WHAT = 'Clinical note';
const APPOINTMENT_NOTES: KeysetList<ClinicalNote> = {
  name: 'appointment:clinical-note',
  entity: ClinicalNote,
  parentColumn: 'appointment_id',
  sortColumn: 'created_at',
};
/** What the org subgraph tells about an appointment (`@requires`). */
export interface AppointmentFacts {
  id: string;
  patientId?: string | null;
  organizationId?: string | null;
}

const encountersSql = new Map<string, string>();

/** The encounters the notes of each appointment document, newest first, numbered per appointment. */
function appointmentEncountersSql(ctx: SubgraphContext): string {
  const records = ctx.em.getMetadata().get(ClinicalRecord.name);
  const notes = ctx.em.getMetadata().get(ClinicalNote.name);
  const schema = records.schema ?? ctx.em.config.get('schema') ?? 'clinical';
  const cached = encountersSql.get(schema);
  if (cached) return cached;
  const columns = records.props
    .filter((p) => !p.lazy && p.persist !== false && p.fieldNames?.length)
    .flatMap((p) => p.fieldNames.map((f) => `"${f}"`));
  const sql =
    `select ${columns.join(', ')}, "__appointment" from (select r.*, n."appointment_id" as "__appointment", ` +
    `row_number() over (partition by n."appointment_id" order by r."created_at" desc, r."id" desc) as "__rn" ` +
    `from "${schema}"."${records.tableName}" r join (select distinct "appointment_id", "encounter_id" from "${schema}"."${notes.tableName}" ` +
    `where "appointment_id" in (?) and "encounter_id" is not null) n on n."encounter_id" = r."id" where r."deleted_at" is null) ranked ` +
    `where "__rn" <= ? order by "__appointment", "__rn"`;
  encountersSql.set(schema, sql);
  return sql;
}

const CONTENT = [...SOAP_SECTIONS, 'text'] as const;
type Content = Partial<Record<SoapSection | 'text', string | null | undefined>>;

/** A SOAP note holds sections and no free text; a free-text note the reverse; neither is empty. */
function checkContent(format: NoteFormat, content: Content): void {
  const issues: FieldIssue[] = [];
  const has = (k: keyof Content) => typeof content[k] === 'string' && content[k]!.trim().length > 0;
  if (format === NoteFormat.soap) {
    if (has('text'))
      issues.push({ field: 'text', message: 'is for free_text notes; a SOAP note has subjective, objective, assessment and plan' });
    else if (!SOAP_SECTIONS.some(has)) issues.push({ field: 'subjective', message: 'or another SOAP section is required' });
  } else {
    for (const s of SOAP_SECTIONS) if (has(s)) issues.push({ field: s, message: 'is for SOAP notes; a free_text note has text' });
    if (!issues.length && !has('text')) issues.push({ field: 'text', message: 'is required' });
  }
  if (issues.length) throw errors.validation(issues);
}

export class ClinicalNoteService {
  /**
   * Writes a draft note for a patient (clinicians who write their clinical data), or an addendum to a signed note (the
   * patient is then the signed note's).
   */
  async create(ctx: SubgraphContext, input: CreateClinicalNoteInput): Promise<ClinicalNote> {
    const issues: FieldIssue[] = [];
    for (const field of ['patientId', 'encounterId', 'appointmentId', 'recordingId', 'addendumToId'] as const) {
      const v = input[field];
      if (v !== undefined && v !== null && !isUuid(v)) issues.push({ field, message: 'must be an id' });
    }
    if (!input.patientId && !input.addendumToId) issues.push({ field: 'patientId', message: 'is required (or addendumToId)' });
    if (issues.length) throw errors.validation(issues);
    let patientId = input.patientId;
    if (input.addendumToId) {
      const original = await readableRow(ctx, ClinicalNote, input.addendumToId, WHAT);
      if (patientId && patientId !== original.patientId) throw errors.invalidField('patientId', "must be the signed note's patient");
      if (original.status !== NoteStatus.signed)
        throw errors.conflict(`An addendum amends a signed note; this one is ${original.status}: edit it instead`);
      patientId = original.patientId;
    }
    const patient = await writablePatient(ctx, patientId!);
    await this.checkLinks(ctx, patient, input);
    const format = input.format ?? (SOAP_SECTIONS.some((s) => input[s]) ? NoteFormat.soap : NoteFormat.free_text);
    checkContent(format, input);
    return this.insert(ctx, patient, {
      format,
      title: input.title?.trim() ?? null,
      ...Object.fromEntries(CONTENT.map((k) => [k, input[k] ?? null])),
      encounterId: input.encounterId ?? null,
      appointmentId: input.appointmentId ?? null,
      recordingId: input.recordingId ?? null,
      addendumToId: input.addendumToId ?? null,
    });
  }

  /** Creates a note with `ctx`'s flush (a request's, or a transaction's), with its first version. */
  async insert(ctx: SubgraphContext, patient: Patient, fields: Partial<ClinicalNote> & { format: NoteFormat }): Promise<ClinicalNote> {
    const note = ctx.em.create(ClinicalNote, {
      ...fields,
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      authorId: ctx.viewer!.userId,
    } as ClinicalNote);
    this.changed(ctx, note, 'create', [...CONTENT.filter((k) => note[k])]);
    await ctx.em.flush();
    return note;
  }

  async get(ctx: SubgraphContext, id: string): Promise<ClinicalNote> {
    const note = await readableRow(ctx, ClinicalNote, id, WHAT);
    auditRowsRead(ctx, 'read', RESOURCE, [note]);
    return note;
  }

  /**
   * `appointment { clinicalNotes }`: the notes written for an appointment, newest first, by cursor; batched across
   * appointments. A note is written for an appointment of its own patient (or, for an appointment booked without a
   * patient profile, of its patient's organization), so the rule is the clinical data of that patient
   * (`clinical:read`, the patient, a consent) or of that organization: otherwise FORBIDDEN on the field.
   */
  async forAppointment(ctx: SubgraphContext, appointment: AppointmentFacts, args: ConnectionArgs): Promise<Connection<ClinicalNote>> {
    windowOf(args);
    await this.requireAppointmentClinicalRead(ctx, appointment);
    const connection = await keysetConnection(ctx, APPOINTMENT_NOTES, appointment.id, args);
    auditRowsRead(ctx, 'list', RESOURCE, connection.nodes);
    return connection;
  }

  /**
   * `appointment { clinicalRecords }`: the clinical records (encounters) the appointment's notes document, newest
   * first, at most `first` per appointment; one statement for every appointment of a response. The rule of
   * `forAppointment`.
   */
  async encountersForAppointment(ctx: SubgraphContext, appointment: AppointmentFacts, first: number): Promise<ClinicalRecord[]> {
    if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) throw errors.invalidField('first', `must be 1 to ${MAX_PAGE_SIZE}`);
    await this.requireAppointmentClinicalRead(ctx, appointment);
    const records = await ctx
      .loader<string, ClinicalRecord[]>(`appointment-encounters:${first}`, async (ids) => {
        const rows = await ctx.em
          .getConnection()
          .execute<Record<string, unknown>[]>(appointmentEncountersSql(ctx), [ids, first], 'all', ctx.em.getTransactionContext());
        const byAppointment = new Map<string, ClinicalRecord[]>();
        for (const { __appointment: appointmentId, __rn: _rank, ...row } of rows) {
          const list = byAppointment.get(String(appointmentId)) ?? [];
          list.push(ctx.em.map(ClinicalRecord, row as never));
          byAppointment.set(String(appointmentId), list);
        }
        return ids.map((id) => byAppointment.get(id) ?? []);
      })
      .load(appointment.id);
    const found = records ?? [];
    auditRowsRead(ctx, 'list', 'clinical_record', found);
    return found;
  }

  /** The clinical data of an appointment's patient (or, without a patient profile, of its organization): FORBIDDEN otherwise. */
  private async requireAppointmentClinicalRead(ctx: SubgraphContext, appointment: AppointmentFacts): Promise<void> {
    const patient = appointment.patientId ? await loadPatient(ctx, appointment.patientId) : null;
    const allowed = patient
      ? !!(await accessBasis(ctx, patient, 'clinical:read'))
      : !!appointment.organizationId && can(ctx.viewer, 'clinical:read', appointment.organizationId);
    if (!allowed) throw errors.forbidden('Reading clinical data needs the clinical:read permission');
  }

  /** A patient's notes, newest first. */
  async listForPatient(ctx: SubgraphContext, patientId: string, args: PatientNoteListArgs): Promise<PageResult<ClinicalNote>> {
    const patient = await readablePatient(ctx, patientId);
    const where: FilterQuery<ClinicalNote> = { patientId: patient.id, ...(args.status ? { status: args.status } : {}) };
    const page = await paginate(ctx.em, ClinicalNote, where, args, { createdAt: 'desc', id: 'asc' });
    auditPatientRead(ctx, 'list', RESOURCE, patient, { count: page.items.length });
    return page;
  }

  /** Changes a draft (every change a version); a signed note is frozen (409). */
  async update(ctx: SubgraphContext, id: string, input: UpdateClinicalNoteInput): Promise<ClinicalNote> {
    const found = await writableRow(ctx, ClinicalNote, id, WHAT);
    const { expectedVersion, ...fields } = input;
    const patch = patchFrom(fields);
    for (const k of ['title', ...CONTENT] as const) if (typeof patch[k] === 'string') patch[k] = patch[k]!.trim();
    return lockedChange(ctx, ClinicalNote, found.id, (tx, note) => {
      NOTE.next(note.status, 'edit');
      if (expectedVersion !== undefined && expectedVersion !== null && expectedVersion !== note.version) {
        throw errors.staleVersion('note', note.version, expectedVersion);
      }
      const changed = changedKeys(note, patch);
      if (!changed.length) return;
      checkContent(note.format, Object.fromEntries(CONTENT.map((k) => [k, k in patch ? patch[k] : note[k]])));
      tx.em.assign(note, patch);
      this.bump(tx, note, 'update', changed);
    });
  }

  /** Appends text to a draft's free text or to one of its SOAP sections (dictation), with `tx`'s transaction. */
  async append(tx: SubgraphContext, note: ClinicalNote, text: string, section?: SoapSection): Promise<void> {
    NOTE.next(note.status, 'edit');
    const field = note.format === NoteFormat.soap ? section : 'text';
    if (!field) throw errors.invalidField('section', 'is required to merge into a SOAP note: subjective, objective, assessment or plan');
    note[field] = note[field] ? `${note[field]}\n\n${text}` : text;
    this.bump(tx, note, 'update', [field]);
    await tx.em.flush();
  }

  /** A clinician who writes the patient's clinical data signs the note: final, frozen, announced. Once. */
  async sign(ctx: SubgraphContext, id: string): Promise<ClinicalNote> {
    const found = await writableRow(ctx, ClinicalNote, id, WHAT);
    return lockedChange(ctx, ClinicalNote, found.id, (tx, note) => {
      note.status = NOTE.next(note.status, 'sign');
      note.signedBy = tx.viewer!.userId;
      note.signedAt = clock.now();
      this.bump(tx, note, 'sign', []);
      emitEvent(tx.em, 'clinical', NOTE_SIGNED, {
        note_id: note.id,
        patient_id: note.patientId,
        organization_id: note.organizationId ?? null,
        signed_by: note.signedBy,
        version: note.version,
        format: note.format,
        addendum_to_id: note.addendumToId ?? null,
      });
    });
  }

  versions(ctx: SubgraphContext, note: ClinicalNote): Promise<ClinicalNoteVersion[]> {
    return ctx.em.find(ClinicalNoteVersion, { noteId: note.id }, { orderBy: { version: 'asc' } });
  }

  /** The addenda of a note, oldest first, batched. */
  addenda(ctx: SubgraphContext, note: ClinicalNote): Promise<ClinicalNote[]> {
    return ctx
      .loader<string, ClinicalNote[]>('note-addenda', async (ids) => {
        const rows = await ctx.em.find(ClinicalNote, { addendumToId: { $in: [...ids] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
        return ids.map((id) => rows.filter((r) => r.addendumToId === id));
      })
      .load(note.id)
      .then((list) => list ?? []);
  }

  /** The encounter, appointment and recording named must be the patient's. */
  private async checkLinks(ctx: SubgraphContext, patient: Patient, input: CreateClinicalNoteInput): Promise<void> {
    if (input.encounterId) {
      const record = await readableRow(ctx, ClinicalRecord, input.encounterId, 'Clinical record', (r) => !!r.deletedAt);
      if (record.patientId !== patient.id) throw errors.invalidField('encounterId', "must be one of the patient's clinical records");
    }
    if (input.recordingId) {
      const recording = await readableRow(ctx, Recording, input.recordingId, 'Recording');
      if (recording.patientId !== patient.id) throw errors.invalidField('recordingId', "must be one of the patient's recordings");
    }
    if (input.appointmentId) await requireAppointmentOf(ctx, input.appointmentId, patient);
  }

  private bump(tx: SubgraphContext, note: ClinicalNote, change: 'update' | 'sign', fields: string[]): void {
    note.version += 1;
    note.updatedBy = tx.viewer!.userId;
    this.changed(tx, note, change, fields);
  }

  /** A version and an audit entry, with the change's flush. */
  private changed(ctx: SubgraphContext, note: ClinicalNote, change: 'create' | 'update' | 'sign', fields: string[]): void {
    ctx.em.create(ClinicalNoteVersion, {
      noteId: note.id,
      patientId: note.patientId,
      version: note.version,
      change,
      snapshot: wrap(note).toObject() as Record<string, unknown>,
      changedBy: ctx.viewer!.userId,
    });
    auditRowChange(ctx, change, RESOURCE, note, { version: note.version, status: note.status, fields });
  }
}
