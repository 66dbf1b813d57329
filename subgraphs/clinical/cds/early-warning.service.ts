import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { auditRowChange } from '../../../shared/audit/audit-trail';
import { writablePatient } from '../access/patient-access';
import { Vital, VitalStatus, type Consciousness } from '../vitals/vital.entity';
import { raiseCriticalScore } from './alerts';
import { EarlyWarningScore, News2RiskBand } from './cds.entity';
import type { CalculateEarlyWarningScoreInput, News2Score } from './cds.types';
import { NEWS2_SOURCE, news2, type News2Input, type RecordNews2 } from './news2';

const RESOURCE = 'early_warning_score';

/** Request fields of each NEWS2 parameter, and the vital sign each may come from. */
const FIELDS = [
  ['respiratoryRate', 'respiratoryRate'],
  ['oxygenSaturation', 'oxygenSaturation'],
  ['supplementalOxygen', 'supplementalOxygen'],
  ['bloodPressureSystolic', 'bloodPressureSystolic'],
  ['heartRate', 'heartRate'],
  ['consciousness', 'consciousness'],
  ['temperature', 'temperature'],
] as const;

type Given = Pick<CalculateEarlyWarningScoreInput, (typeof FIELDS)[number][0]>;

export function scoreOut(s: EarlyWarningScore, fromVitals: string[] = []): News2Score {
  return {
    id: s.id,
    patientId: s.patientId,
    total: s.total,
    risk: s.risk,
    redScore: s.redScore,
    parameters: s.parameters,
    spo2Scale: s.spo2Scale,
    monitoringFrequency: s.monitoringFrequency,
    response: s.response,
    observedAt: s.observedAt,
    vitalId: s.vitalId ?? null,
    fromVitals,
    assumed: [],
    source: NEWS2_SOURCE,
  };
}

/** A NEWS2 computed from a vital signs record and not kept (id null): every parameter comes from the record or is assumed. */
export function vitalScoreOut(vital: Vital, r: RecordNews2): News2Score {
  return {
    ...r,
    id: null,
    patientId: vital.patientId,
    risk: r.risk as News2RiskBand,
    observedAt: vital.recordedAt,
    vitalId: vital.id,
    fromVitals: FIELDS.map(([f]) => f).filter((f) => !(r.assumed as string[]).includes(f)),
    source: NEWS2_SOURCE,
  };
}

/** NEWS2 medium or high: the urgent and emergency response thresholds of the chart. */
export const URGENT_NEWS2 = new Set<string>([News2RiskBand.medium, News2RiskBand.high]);

export class EarlyWarningService {
  /**
   * NEWS2 from the observations given. With a patient, what is not given comes from the patient's latest vital
   * signs, the score is kept, and a medium or high score raises `svc.cds.critical_score`. Nothing is assumed: a
   * parameter neither given nor in that record is a 400. Without a patient, it is a calculator for any caller.
   */
  async calculate(ctx: SubgraphContext, input: CalculateEarlyWarningScoreInput): Promise<News2Score> {
    requireViewer(ctx.viewer);
    const patient = input.patientId ? await writablePatient(ctx, input.patientId) : null;
    const values: Given = Object.fromEntries(FIELDS.map(([f]) => [f, input[f] ?? undefined]));
    const fromVitals: string[] = [];
    let vital: Vital | null = null;
    if (patient && FIELDS.some(([f, sign]) => sign && values[f] === undefined)) {
      vital = await ctx.em.findOne(
        Vital,
        { patientId: patient.id, status: { $ne: VitalStatus.entered_in_error } },
        { orderBy: { recordedAt: 'desc', id: 'asc' } },
      );
      for (const [f, sign] of FIELDS) {
        const v = sign && vital ? vital[sign] : null;
        if (values[f] === undefined && v !== null && v !== undefined) {
          (values as Record<string, unknown>)[f] = v;
          fromVitals.push(f);
        }
      }
    }
    const missing = FIELDS.map(([f]) => f).filter((f) => values[f] === undefined);
    if (missing.length) {
      const why = patient ? 'is required to score NEWS2 (not given, and not in the latest vital signs)' : 'is required to score NEWS2';
      throw errors.validation(missing.map((field) => ({ field, message: why })));
    }
    const result = news2({
      respiratoryRate: values.respiratoryRate!,
      oxygenSaturation: values.oxygenSaturation!,
      spo2Scale: (input.spo2Scale ?? 1) as News2Input['spo2Scale'],
      supplementalOxygen: values.supplementalOxygen!,
      systolicBloodPressure: values.bloodPressureSystolic!,
      heartRate: values.heartRate!,
      consciousness: values.consciousness! as Consciousness,
      temperature: values.temperature!,
    });
    const observedAt = fromVitals.length && vital ? vital.recordedAt : clock.now();
    if (!patient) {
      return {
        ...result,
        id: null,
        patientId: null,
        risk: result.risk as News2RiskBand,
        observedAt,
        vitalId: null,
        fromVitals,
        assumed: [],
        source: NEWS2_SOURCE,
      };
    }
    const score = ctx.em.create(EarlyWarningScore, {
      patientId: patient.id,
      organizationId: patient.organizationId ?? null,
      total: result.total,
      risk: result.risk as News2RiskBand,
      redScore: result.redScore,
      spo2Scale: result.spo2Scale,
      parameters: result.parameters,
      monitoringFrequency: result.monitoringFrequency,
      response: result.response,
      observedAt,
      vitalId: fromVitals.length ? (vital?.id ?? null) : null,
      computedBy: ctx.viewer!.userId,
    });
    auditRowChange(ctx, 'create', RESOURCE, score, { total: score.total, risk: score.risk, fromVitals });
    if (URGENT_NEWS2.has(score.risk)) {
      await raiseCriticalScore(ctx, patient, {
        name: 'news2',
        dedupeKey: score.id,
        value: score.total,
        risk: score.risk,
        summary: `NEWS2 ${score.total} (${score.risk.replace('_', '-')} risk): ${score.risk === News2RiskBand.high ? 'emergency' : 'urgent'} response`,
        detail: score.response,
      });
    }
    await ctx.em.flush();
    return scoreOut(score, fromVitals);
  }
}
