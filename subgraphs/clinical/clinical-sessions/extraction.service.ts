import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { validate } from 'class-validator';
import { auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { clock } from '../../../shared/clock';
import { errors, issuesFromClassValidator, type FieldIssue } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import type { SubgraphContext } from '../../../shared/subgraph';
import { writablePatient } from '../access/patient-access';
import { readableRow, writableRow } from '../access/patient-rows';
import { Allergy, substanceKey } from '../allergies/allergy.entity';
import { AllergyService } from '../allergies/allergy.service';
import { RecordAllergyInput } from '../allergies/allergy.types';
import { JourneyService } from '../journey/journey.service';
import { RecordJourneyEventInput } from '../journey/journey.types';
import type { Patient } from '../patients/patient.entity';
import { PrescriptionService } from '../prescriptions/prescription.service';
import { CreatePrescriptionInput } from '../prescriptions/prescription.types';
import { VitalService } from '../vitals/vital.service';
import { RecordVitalInput } from '../vitals/vital.types';
import { ActionItem } from './action-item.entity';
import { EXTRACTION, Extraction, ExtractionItemKind, ExtractionItemStatus, type ExtractionItem } from './extraction.entity';
import { EXTRACTOR_VERSION, extract } from './extractor';
import { EXTRACTION_COMMITTED } from './sessions.events';
import type { CreateExtractionInput } from './sessions.types';
import { Transcript, TranscriptStatus } from './transcript.entity';

const RESOURCE = 'extraction';
const WHAT = 'Extraction';

/** The vital-sign fields of the vitals module each proposed sign fills. */
const VITAL_FIELDS: Record<string, (keyof RecordVitalInput)[]> = {
  blood_pressure: ['bloodPressureSystolic', 'bloodPressureDiastolic'],
  heart_rate: ['heartRate'],
  temperature: ['temperature'],
  respiratory_rate: ['respiratoryRate'],
  oxygen_saturation: ['oxygenSaturation'],
  weight: ['weightKg'],
};

/** An input built from an item, checked with the rules its module's API applies (the service trusts its input). */
async function checked<T extends object>(input: T, item: ExtractionItem): Promise<T> {
  const found = await validate(input, { skipMissingProperties: true, forbidUnknownValues: false });
  if (found.length) throw errors.validation(issuesFromClassValidator(found, `items.${item.id}`));
  return input;
}

export class ExtractionService {
  private readonly vitals = new VitalService();
  private readonly allergies = new AllergyService();
  private readonly prescriptions = new PrescriptionService();
  private readonly journey = new JourneyService();

  /** Runs the built-in extractor over a completed transcript, or over a text for a patient; nothing is written to the chart. */
  async create(ctx: SubgraphContext, input: CreateExtractionInput): Promise<Extraction> {
    const issues: FieldIssue[] = [];
    if (input.transcriptId && input.text) issues.push({ field: 'text', message: 'must not be sent with transcriptId' });
    if (!input.transcriptId && !input.text) issues.push({ field: 'transcriptId', message: 'or text is required' });
    if (input.transcriptId && !isUuid(input.transcriptId)) issues.push({ field: 'transcriptId', message: 'must be a transcript id' });
    if (input.text && !input.patientId) issues.push({ field: 'patientId', message: 'is required with text' });
    if (input.patientId && !isUuid(input.patientId)) issues.push({ field: 'patientId', message: 'must be a patient id' });
    if (issues.length) throw errors.validation(issues);
    let patient: Patient;
    let text: string;
    let transcript: Transcript | null = null;
    if (input.transcriptId) {
      transcript = await readableRow(ctx, Transcript, input.transcriptId, 'Transcript');
      if (input.patientId && input.patientId !== transcript.patientId)
        throw errors.invalidField('patientId', "must be the transcript's patient");
      patient = await writablePatient(ctx, transcript.patientId);
      if (transcript.status !== TranscriptStatus.completed || !transcript.text) {
        throw errors.conflict(`Only a completed transcript can be analysed; this one is ${transcript.status}`);
      }
      text = transcript.text;
    } else {
      patient = await writablePatient(ctx, input.patientId!);
      text = input.text!;
    }
    const today = clock.now().toISOString().slice(0, 10);
    const items: ExtractionItem[] = extract(text, today).map((p) => ({
      id: randomUUID(),
      status: ExtractionItemStatus.proposed,
      recordType: null,
      recordId: null,
      ...(p as Omit<ExtractionItem, 'id' | 'status' | 'recordType' | 'recordId'>),
    }));
    const extraction = ctx.em.create(Extraction, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      transcriptId: transcript?.id ?? null,
      recordingId: transcript?.recordingId ?? null,
      sourceText: text,
      extractor: EXTRACTOR_VERSION,
      items,
      createdBy: ctx.viewer!.userId,
    });
    auditRowChange(ctx, 'create', RESOURCE, extraction, { items: items.length, transcript_id: extraction.transcriptId });
    await ctx.em.flush();
    return extraction;
  }

  async get(ctx: SubgraphContext, id: string): Promise<Extraction> {
    const extraction = await readableRow(ctx, Extraction, id, WHAT);
    auditRowsRead(ctx, 'read', RESOURCE, [extraction]);
    return extraction;
  }

  /**
   * Writes the accepted items (all, or those named) to the chart through the clinical modules' own services, in one
   * transaction: vital signs (one record per set of distinct signs), allergies, draft prescriptions, a journey event
   * per problem and one that sums the commit up, an action item per follow-up. Items not accepted are rejected and
   * never written; an allergy the chart already has is not written again. Committing twice is a 409.
   */
  async commit(ctx: SubgraphContext, id: string, itemIds?: string[] | null): Promise<Extraction> {
    const found = await writableRow(ctx, Extraction, id, WHAT);
    if (itemIds) {
      const known = new Set(found.items.map((i) => i.id));
      const issues = itemIds.flatMap((itemId, i) =>
        known.has(itemId) ? [] : [{ field: `itemIds.${i}`, message: 'is not an item of this extraction' }],
      );
      if (issues.length) throw errors.validation(issues);
    }
    const accepted = new Set(itemIds ?? found.items.map((i) => i.id));
    return ctx.em.transactional(async (em) => {
      const tx: SubgraphContext = { ...ctx, em };
      const extraction = await em.findOneOrFail(Extraction, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      extraction.status = EXTRACTION.next(extraction.status, 'commit');
      const patientId = extraction.patientId;
      const items = extraction.items.map((i) => ({ ...i, status: accepted.has(i.id) ? i.status : ExtractionItemStatus.rejected }));
      const take = (kind: ExtractionItemKind) => items.filter((i) => i.kind === kind && i.status === ExtractionItemStatus.proposed);
      const written = (
        item: ExtractionItem,
        recordType: ExtractionItem['recordType'] & string,
        recordId: string,
        status = ExtractionItemStatus.committed,
      ) => Object.assign(item, { status, recordType, recordId });
      const records = {
        vital: [] as string[],
        allergy: [] as string[],
        prescription: [] as string[],
        journey_event: [] as string[],
        action_item: [] as string[],
      };

      // Vital signs: one record per set of distinct signs, in the order said.
      const groups: ExtractionItem[][] = [];
      for (const item of take(ExtractionItemKind.vital_sign)) {
        const open = groups.find((g) => !g.some((o) => o.vitalSign!.sign === item.vitalSign!.sign));
        if (open) open.push(item);
        else groups.push([item]);
      }
      for (const group of groups) {
        const input = new RecordVitalInput();
        input.patientId = patientId;
        for (const item of group) {
          const [first, second] = VITAL_FIELDS[item.vitalSign!.sign];
          Object.assign(input, { [first]: item.vitalSign!.value }, second ? { [second]: item.vitalSign!.secondValue } : {});
        }
        const vital = await this.vitals.record(tx, await checked(input, group[0]));
        for (const item of group) written(item, 'vital', vital.id);
        records.vital.push(vital.id);
      }

      for (const item of take(ExtractionItemKind.allergy)) {
        const a = item.allergy!;
        const existing = await em.findOne(Allergy, { patientId, activeSubstanceKey: substanceKey(a.substance) });
        if (existing) {
          written(item, 'allergy', existing.id, ExtractionItemStatus.already_recorded);
          continue;
        }
        const input = Object.assign(new RecordAllergyInput(), {
          substance: a.substance,
          reaction: a.reaction ?? undefined,
          category: a.category ?? undefined,
          type: 'allergy',
          notes: `From the consultation: "${item.span.text}"`.slice(0, 2000),
        });
        const allergy = await this.allergies.record(tx, patientId, await checked(input, item));
        written(item, 'allergy', allergy.id);
        records.allergy.push(allergy.id);
      }

      for (const item of take(ExtractionItemKind.medication)) {
        const m = item.medication!;
        const input = Object.assign(new CreatePrescriptionInput(), {
          patientId,
          medication: m.name,
          dosage: `${m.dose} ${m.unit}`,
          frequency: m.frequency,
          duration: m.duration ?? undefined,
          instructions: m.route ? `Route: ${m.route}` : undefined,
        });
        const prescription = await this.prescriptions.create(tx, await checked(input, item));
        written(item, 'prescription', prescription.id);
        records.prescription.push(prescription.id);
      }

      for (const item of take(ExtractionItemKind.problem)) {
        const p = item.problem!;
        const input = Object.assign(new RecordJourneyEventInput(), {
          type: 'diagnosis',
          title: `${p.icd10Display} (ICD-10-CM ${p.icd10Code})`.slice(0, 200),
          description: `From the consultation: "${item.span.text}"`,
        });
        const event = await this.journey.record(tx, patientId, await checked(input, item));
        written(item, 'journey_event', event.id);
        records.journey_event.push(event.id);
      }

      for (const item of take(ExtractionItemKind.follow_up)) {
        const f = item.followUp!;
        const action = em.create(ActionItem, {
          patientId,
          organizationId: extraction.organizationId ?? null,
          recordingId: extraction.recordingId ?? null,
          extractionId: extraction.id,
          title: `Follow-up: ${f.description}`.slice(0, 200),
          description: f.description,
          assigneeId: ctx.viewer!.userId,
          dueDate: f.dueDate,
          createdBy: ctx.viewer!.userId,
        });
        auditRowChange(tx, 'create', 'action_item', action, { extraction_id: extraction.id });
        written(item, 'action_item', action.id);
        records.action_item.push(action.id);
      }

      const committed = items.filter((i) => i.status === ExtractionItemStatus.committed);
      if (committed.length) {
        const summary = Object.assign(new RecordJourneyEventInput(), {
          type: 'note',
          title: 'Consultation facts committed to the chart',
          description: committed
            .map((i) => `- ${i.display}`)
            .join('\n')
            .slice(0, 5000),
        });
        const event = await this.journey.record(tx, patientId, summary);
        records.journey_event.push(event.id);
      }

      extraction.items = items;
      extraction.committedBy = ctx.viewer!.userId;
      extraction.committedAt = clock.now();
      auditRowChange(tx, 'commit', RESOURCE, extraction, {
        committed: committed.length,
        rejected: items.filter((i) => i.status === ExtractionItemStatus.rejected).length,
      });
      emitEvent(em, 'clinical', EXTRACTION_COMMITTED, {
        extraction_id: extraction.id,
        patient_id: patientId,
        organization_id: extraction.organizationId ?? null,
        committed_by: ctx.viewer!.userId,
        committed_item_ids: committed.map((i) => i.id),
        rejected_item_ids: items.filter((i) => i.status === ExtractionItemStatus.rejected).map((i) => i.id),
        vital_ids: records.vital,
        allergy_ids: records.allergy,
        prescription_ids: records.prescription,
        journey_event_ids: records.journey_event,
        action_item_ids: records.action_item,
      });
      return extraction;
    });
  }
}
