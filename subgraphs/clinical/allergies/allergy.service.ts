import { errors } from '../../../shared/errors';
import { changedKeys, paginate, patchFrom, type PageResult } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import { readablePatient, writablePatient } from '../access/patient-access';
import { readableRow, writableRow } from '../access/patient-rows';
import { auditPatientRead, auditRowChange, auditRowsRead } from '../../../shared/audit/audit-trail';
import { Allergy, AllergyStatus, AllergyType, substanceKey } from './allergy.entity';
import type { AllergyListArgs, RecordAllergyInput, UpdateAllergyInput } from './allergy.types';

const RESOURCE = 'allergy';
const WHAT = 'Allergy';

export class AllergyService {
  /** Clinicians of the patient's organization, or the patient themselves, record an allergy. */
  async record(ctx: SubgraphContext, patientId: string, input: RecordAllergyInput): Promise<Allergy> {
    const patient = await writablePatient(ctx, patientId, { allowSelf: true });
    const status = input.status ?? AllergyStatus.active;
    const substance = input.substance.trim();
    const activeSubstanceKey = status === AllergyStatus.active ? substanceKey(substance) : null;
    await this.checkDuplicate(ctx, patient.id, activeSubstanceKey, substance);
    const allergy = ctx.em.create(Allergy, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      substance,
      reaction: input.reaction?.trim() ?? null,
      severity: input.severity ?? null,
      type: input.type ?? AllergyType.allergy,
      category: input.category ?? null,
      criticality: input.criticality ?? null,
      onsetDate: input.onsetDate ?? null,
      status,
      notes: input.notes?.trim() ?? null,
      recordedBy: ctx.viewer!.userId,
      activeSubstanceKey,
    });
    auditRowChange(ctx, 'create', RESOURCE, allergy, { status });
    await ctx.em.flush();
    return allergy;
  }

  async listForPatient(ctx: SubgraphContext, patientId: string, args: AllergyListArgs): Promise<PageResult<Allergy>> {
    const patient = await readablePatient(ctx, patientId);
    const page = await paginate(ctx.em, Allergy, { patientId: patient.id, ...(args.status ? { status: args.status } : {}) }, args);
    auditPatientRead(ctx, 'list', RESOURCE, patient, { count: page.items.length });
    return page;
  }

  async get(ctx: SubgraphContext, id: string): Promise<Allergy> {
    const allergy = await readableRow(ctx, Allergy, id, WHAT);
    auditRowsRead(ctx, 'read', RESOURCE, [allergy]);
    return allergy;
  }

  /** Corrects an allergy or changes its status (resolved, active again, ...); the patient may change their own. */
  async update(ctx: SubgraphContext, id: string, input: UpdateAllergyInput): Promise<Allergy> {
    const allergy = await writableRow(ctx, Allergy, id, WHAT, { allowSelf: true });
    const patch = patchFrom(input, ['substance', 'type', 'status']);
    for (const k of ['substance', 'reaction', 'notes'] as const) if (patch[k]) patch[k] = patch[k].trim();
    const changed = changedKeys(allergy, patch);
    if (!changed.length) return allergy;
    const substance = patch.substance ?? allergy.substance;
    const status = patch.status ?? allergy.status;
    const activeSubstanceKey = status === AllergyStatus.active ? substanceKey(substance) : null;
    if (activeSubstanceKey && activeSubstanceKey !== allergy.activeSubstanceKey) {
      await this.checkDuplicate(ctx, allergy.patientId, activeSubstanceKey, substance);
    }
    const previous = Object.fromEntries(changed.map((k) => [k, allergy[k] ?? null]));
    ctx.em.assign(allergy, { ...patch, activeSubstanceKey });
    allergy.updatedBy = ctx.viewer!.userId;
    auditRowChange(ctx, 'update', RESOURCE, allergy, { fields: changed, previous });
    await ctx.em.flush();
    return allergy;
  }

  /** One active allergy per substance and patient, whatever the letter case. */
  private async checkDuplicate(ctx: SubgraphContext, patientId: string, key: string | null, substance: string): Promise<void> {
    if (key && (await ctx.em.count(Allergy, { patientId, activeSubstanceKey: key }))) {
      throw errors.duplicate(`An active allergy to ${substance} is already recorded for this patient`);
    }
  }
}
