import { createHash, randomUUID } from 'node:crypto';
import { snakeCase } from '../../../shared/case';
import { clock } from '../../../shared/clock';
import { AppError, errors } from '../../../shared/errors';
import { requireViewer } from '../../../shared/permissions';
import { unseal } from '../../../shared/secrets';
import type { SubgraphContext } from '../../../shared/subgraph';
import { auditChange } from '../../../shared/audit/audit-trail';
import { logger } from '../../../shared/logger';
import { readablePatient } from '../access/patient-access';
import { LabResult } from '../labs/lab.entity';
import type { Patient } from '../patients/patient.entity';
import { raiseCriticalScore } from '../cds/alerts';
import { AiModel, AiModelStatus, AiRuntime, AiTask } from './ai.entity';
import type {
  AiModelSummary,
  CancerDetectionAnswer,
  CancerDetectionInput,
  CloudInferenceAnswer,
  CloudInferenceInput,
  DiagnosisAnswer,
  DiagnosisInput,
  LabInterpretationAnswer,
  LabInterpretationInput,
  RiskStratificationAnswer,
  RiskStratificationInput,
} from './ai.types';
import { KB_SOURCE, differential, recognizeSymptoms } from './differential';
import { interpretLabs, type LabInput } from './lab-interpretation';
import { loadModel } from './registry.service';
import { cha2ds2Vasc, lace, pooledCohort, qsofa, type ScoreResult } from './risk-scores';
import { chatComplete, checkTensors, kserveInfer, type ChatMessage, type InferenceTarget, type Tensor } from './runtimes';

export const DISCLAIMER =
  'This answer supports and does not replace clinical judgement: it comes from the model named, with the inputs listed, and must be checked by a clinician against the whole clinical picture.';

const RESOURCE = 'ai_inference';
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/**
 * JSON values the platform writes for clients (inputs used, score inputs, answer wrappers) are in the wire's
 * snake_case, as a JSON scalar reaches REST and GraphQL alike without renaming. A model's own raw output is left as
 * the model gave it.
 */
export function wireJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(wireJson) as T;
  if (!value || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeCase(k), wireJson(v)])) as T;
}

const summaryOf = (m: AiModel): AiModelSummary => ({
  id: m.id,
  name: m.name,
  version: m.version,
  task: m.task,
  runtime: m.runtime,
  validationReference: m.validationReference,
});

/** What each task asks an external chat model to do with the inputs. */
const INSTRUCTIONS: Partial<Record<AiTask, string>> = {
  [AiTask.diagnosis]:
    'You assist a clinician. Given the JSON of symptoms, age and sex, list a ranked differential diagnosis with brief reasons and red flags. Do not give certainty.',
  [AiTask.lab_interpretation]:
    'You assist a clinician. Given the JSON of lab results with units and reference ranges, interpret each result and any pattern across them.',
  [AiTask.risk_stratification]:
    'You assist a clinician. Given the JSON of risk score inputs, estimate the risks with the named scores and explain them.',
  [AiTask.cancer_detection]: 'You assist a clinician. Describe findings in the image relevant to cancer detection, with your uncertainty.',
};

/** Years between a date of birth (YYYY-MM-DD) and now. */
function ageOf(dateOfBirth: string | null | undefined, now = clock.now()): number | null {
  if (!dateOfBirth) return null;
  const [y, m, d] = dateOfBirth.slice(0, 10).split('-').map(Number);
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) age--;
  return age;
}

const sexOf = (gender: string | null | undefined): 'female' | 'male' | null => (gender === 'female' || gender === 'male' ? gender : null);

interface CallContext {
  model: AiModel;
  patient: Patient | null;
}

export class AiService {
  /**
   * The model for a task: the one asked for (active, of that task), else the built-in one, else the newest active
   * registered one. None: 503 saying what is missing, never an invented answer.
   */
  private async modelFor(ctx: SubgraphContext, task: AiTask, modelId: string | undefined | null): Promise<AiModel> {
    if (modelId !== undefined && modelId !== null) {
      const model = await loadModel(ctx, modelId);
      if (!model) throw errors.notFound('AI model');
      if (model.task !== task)
        throw errors.invalidField(
          'modelId',
          `must be a ${task.replace(/_/g, ' ')} model (this one is for ${model.task.replace(/_/g, ' ')})`,
        );
      if (model.status !== AiModelStatus.active) throw errors.invalidField('modelId', 'must be an active model (this one is retired)');
      return model;
    }
    const builtin = await ctx.em.findOne(
      AiModel,
      { task, runtime: AiRuntime.builtin, status: AiModelStatus.active },
      { orderBy: { createdAt: 'desc' } },
    );
    if (builtin) return builtin;
    const registered = await ctx.em.findOne(AiModel, { task, status: AiModelStatus.active }, { orderBy: { createdAt: 'desc', id: 'asc' } });
    if (registered) return registered;
    throw errors.serviceUnavailable(
      `No ${task.replace(/_/g, ' ')} model is registered: the platform has no built-in model for this task and will not invent a result. ` +
        'An administrator can register one (POST /api/ai/models) served over the Open Inference Protocol or an OpenAI-compatible API.',
    );
  }

  private async target(model: AiModel, em: SubgraphContext['em']): Promise<InferenceTarget> {
    if (model.runtime === AiRuntime.builtin || !model.endpoint) throw new Error(`model ${model.id} has no endpoint`);
    await em.populate(model, ['credential']);
    return {
      runtime: model.runtime,
      endpoint: model.endpoint,
      remoteModel: model.remoteModel ?? model.name,
      timeoutMs: model.timeoutMs,
      apiKey: model.credential ? await unseal(model.credential) : null,
      label: `Model ${model.name} ${model.version}`,
    };
  }

  /**
   * Runs one call and audits it, whatever the outcome (the audit row is written even when the model fails): who,
   * which model and version, which patient, how it ended and how long it took.
   */
  private async audited<T>(
    ctx: SubgraphContext,
    call: CallContext,
    task: AiTask,
    run: () => Promise<T>,
    details: Record<string, unknown> = {},
  ): Promise<T> {
    const started = performance.now();
    const write = async (outcome: string) => {
      auditChange(ctx, {
        action: RESOURCE,
        resourceType: 'ai_model',
        resourceId: call.model.id,
        patientId: call.patient?.id ?? null,
        organizationId: call.patient?.organizationId ?? null,
        details: {
          task,
          model: call.model.name,
          version: call.model.version,
          runtime: call.model.runtime,
          outcome,
          ms: Math.round(performance.now() - started),
          ...details,
        },
      });
      await ctx.em.flush();
    };
    let result: T;
    try {
      result = await run();
    } catch (err) {
      // The failure the caller gets matters more than its audit: a failed audit write is logged, not thrown.
      await write(err instanceof AppError ? err.code.toLowerCase() : 'error').catch((flushErr) =>
        logger.error({ err: flushErr, reqId: ctx.requestId }, 'could not write the audit of an AI call'),
      );
      throw err;
    }
    // An answer is given only once its audit is written.
    await write('ok');
    return result;
  }

  private async patientFor(ctx: SubgraphContext, patientId: string | undefined | null): Promise<Patient | null> {
    return patientId === undefined || patientId === null ? null : readablePatient(ctx, patientId);
  }

  /** An external model of a task that also has a built-in one: the inputs as JSON, the model's answer as it gave it. */
  private async external(
    ctx: SubgraphContext,
    model: AiModel,
    task: AiTask,
    inputs: Record<string, unknown>,
  ): Promise<{ text: string | null; output: unknown }> {
    const t = await this.target(model, ctx.em);
    if (t.runtime === 'openai') {
      const r = await chatComplete(t, [
        { role: 'system', content: INSTRUCTIONS[task] ?? '' },
        { role: 'user', content: JSON.stringify(inputs) },
      ]);
      return { text: r.text, output: { finish_reason: r.finishReason, usage: r.usage, model: r.model } };
    }
    const r = await kserveInfer(t, {
      id: randomUUID(),
      inputs: [{ name: 'input_json', shape: [1], datatype: 'BYTES', data: [JSON.stringify(inputs)] }],
    });
    return { text: null, output: r };
  }

  async diagnose(ctx: SubgraphContext, input: DiagnosisInput): Promise<DiagnosisAnswer> {
    requireViewer(ctx.viewer);
    const patient = await this.patientFor(ctx, input.patientId);
    const model = await this.modelFor(ctx, AiTask.diagnosis, input.modelId);
    const age = input.age ?? ageOf(patient?.dateOfBirth);
    const sex = input.sex ?? sexOf(patient?.gender);
    return this.audited(ctx, { model, patient }, AiTask.diagnosis, async () => {
      const base = { model: summaryOf(model), disclaimer: DISCLAIMER, generatedAt: clock.now() };
      if (model.runtime !== AiRuntime.builtin) {
        const inputs = { symptoms: input.symptoms, age, sex };
        const r = await this.external(ctx, model, AiTask.diagnosis, inputs);
        return { ...base, inputsUsed: wireJson(inputs), differential: [], unrecognizedSymptoms: [], ...r };
      }
      const { symptoms, unrecognized } = recognizeSymptoms(input.symptoms);
      return {
        ...base,
        inputsUsed: wireJson({
          symptoms,
          age,
          sex,
          knowledgeBase: KB_SOURCE,
          note: 'Age and sex are recorded but not weighed by this knowledge base.',
        }),
        differential: differential(symptoms, input.maxResults ?? 5),
        unrecognizedSymptoms: unrecognized,
        text: null,
        output: null,
      };
    });
  }

  async interpretLabs(ctx: SubgraphContext, input: LabInterpretationInput): Promise<LabInterpretationAnswer> {
    requireViewer(ctx.viewer);
    const patient = await this.patientFor(ctx, input.patientId);
    let results: LabInput[] | undefined = input.results;
    let fromRecord = false;
    if (!results) {
      if (!patient) throw errors.invalidField('results', 'are required (or patientId, to interpret the latest results of the patient)');
      results = await this.latestResults(ctx, patient.id);
      fromRecord = true;
      if (!results.length) throw errors.invalidField('results', 'are required: the patient has no numeric lab results');
    }
    const model = await this.modelFor(ctx, AiTask.lab_interpretation, input.modelId);
    const subject = { sex: input.sex ?? sexOf(patient?.gender), pregnant: input.pregnant ?? null };
    return this.audited(ctx, { model, patient }, AiTask.lab_interpretation, async () => {
      const base = { model: summaryOf(model), disclaimer: DISCLAIMER, generatedAt: clock.now() };
      const inputsUsed = wireJson({ results, ...subject, resultsFrom: fromRecord ? 'patient_record' : 'request' });
      if (model.runtime !== AiRuntime.builtin) {
        return {
          ...base,
          inputsUsed,
          results: [],
          patterns: [],
          ...(await this.external(ctx, model, AiTask.lab_interpretation, inputsUsed)),
        };
      }
      const out = interpretLabs(results!, subject);
      return { ...base, inputsUsed, results: out.results, patterns: out.patterns, text: null, output: null };
    });
  }

  /** The newest numeric result of each test of the patient (at most 100 tests). */
  private async latestResults(ctx: SubgraphContext, patientId: string): Promise<LabInput[]> {
    const rows = await ctx.em.find(
      LabResult,
      { patientId, numericValue: { $ne: null } },
      { orderBy: { observedAt: 'desc', createdAt: 'desc' }, limit: 500 },
    );
    const seen = new Set<string>();
    const out: LabInput[] = [];
    for (const r of rows) {
      if (seen.has(r.code) || out.length >= 100) continue;
      seen.add(r.code);
      out.push({
        code: r.code,
        name: r.display ?? null,
        value: r.numericValue!,
        unit: r.unit ?? '',
        referenceRange: r.referenceRange ?? null,
      });
    }
    return out;
  }

  async stratifyRisk(ctx: SubgraphContext, input: RiskStratificationInput): Promise<RiskStratificationAnswer> {
    requireViewer(ctx.viewer);
    if (!input.pooledCohortEquations && !input.cha2ds2Vasc && !input.qsofa && !input.lace) {
      throw errors.invalidField('pooledCohortEquations', 'or cha2ds2Vasc, qsofa or lace is required: the scores to compute');
    }
    const patient = await this.patientFor(ctx, input.patientId);
    const age = ageOf(patient?.dateOfBirth);
    const sex = sexOf(patient?.gender);
    const need = (value: unknown, field: string, what: string) => {
      if (value === null || value === undefined)
        throw errors.invalidField(field, `is required${patient ? ` (the patient record has no ${what})` : ''}`);
      return value;
    };
    const pce = input.pooledCohortEquations && {
      ...input.pooledCohortEquations,
      age: need(input.pooledCohortEquations.age ?? age, 'pooledCohortEquations.age', 'date of birth') as number,
      sex: need(input.pooledCohortEquations.sex ?? sex, 'pooledCohortEquations.sex', 'female or male gender') as 'female' | 'male',
    };
    if (pce && (pce.age < 40 || pce.age > 79))
      throw errors.invalidField(
        'pooledCohortEquations.age',
        'must be between 40 and 79 years: the equations were derived and validated in that range',
      );
    const cha = input.cha2ds2Vasc && {
      ...input.cha2ds2Vasc,
      age: need(input.cha2ds2Vasc.age ?? age, 'cha2ds2Vasc.age', 'date of birth') as number,
      sex: need(input.cha2ds2Vasc.sex ?? sex, 'cha2ds2Vasc.sex', 'female or male gender') as 'female' | 'male',
    };
    const model = await this.modelFor(ctx, AiTask.risk_stratification, input.modelId);
    const inputsUsed = wireJson({
      pooledCohortEquations: pce ?? null,
      cha2ds2Vasc: cha ?? null,
      qsofa: input.qsofa ?? null,
      lace: input.lace ?? null,
    });
    const answer = await this.audited(ctx, { model, patient }, AiTask.risk_stratification, async () => {
      const base = { model: summaryOf(model), disclaimer: DISCLAIMER, generatedAt: clock.now(), inputsUsed };
      if (model.runtime !== AiRuntime.builtin)
        return { ...base, scores: [] as ScoreResult[], ...(await this.external(ctx, model, AiTask.risk_stratification, inputsUsed)) };
      const scores: ScoreResult[] = [];
      if (pce) scores.push(pooledCohort(pce));
      if (cha) scores.push(cha2ds2Vasc(cha));
      if (input.qsofa) scores.push(qsofa(input.qsofa));
      if (input.lace) scores.push(lace(input.lace));
      return { ...base, scores: scores.map((sc) => ({ ...sc, inputs: wireJson(sc.inputs) })), text: null, output: null };
    });
    const sepsis = answer.scores.find((s) => s.score === 'qsofa' && s.category === 'high');
    if (patient && sepsis) {
      // The same inputs for the same patient are one finding, however often they are sent.
      const key = createHash('sha256').update(JSON.stringify(input.qsofa)).digest('base64url').slice(0, 22);
      await raiseCriticalScore(ctx, patient, {
        name: 'qsofa',
        dedupeKey: key,
        value: sepsis.value,
        risk: sepsis.category,
        summary: `qSOFA ${sepsis.value}: high risk of poor outcome if infection is present`,
        detail: sepsis.interpretation,
      });
      await ctx.em.flush();
    }
    return answer as RiskStratificationAnswer;
  }

  async detectCancer(ctx: SubgraphContext, input: CancerDetectionInput): Promise<CancerDetectionAnswer> {
    requireViewer(ctx.viewer);
    const image = input.imageBase64.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(image) || image.length % 4 !== 0) throw errors.invalidField('imageBase64', 'must be base64');
    const bytes = Buffer.from(image, 'base64');
    if (bytes.length > MAX_IMAGE_BYTES) throw errors.invalidField('imageBase64', `must be at most ${MAX_IMAGE_BYTES} bytes`);
    const magic: Record<string, (b: Buffer) => boolean> = {
      'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
      'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
      'application/dicom': (b) => b.length > 132 && b.subarray(128, 132).toString('latin1') === 'DICM',
    };
    if (!magic[input.contentType](bytes)) throw errors.invalidField('imageBase64', `is not a ${input.contentType} image`);
    const patient = await this.patientFor(ctx, input.patientId);
    const model = await this.modelFor(ctx, AiTask.cancer_detection, input.modelId);
    const inputsUsed = wireJson({
      contentType: input.contentType,
      imageBytes: bytes.length,
      imageSha256: createHash('sha256').update(bytes).digest('hex'),
      bodySite: input.bodySite ?? null,
      modality: input.modality ?? null,
    });
    return this.audited(ctx, { model, patient }, AiTask.cancer_detection, async () => {
      const t = await this.target(model, ctx.em);
      const base = { model: summaryOf(model), disclaimer: DISCLAIMER, generatedAt: clock.now(), inputsUsed };
      if (t.runtime === 'openai') {
        const content = [
          {
            type: 'text',
            text: `${INSTRUCTIONS[AiTask.cancer_detection]} Body site: ${input.bodySite ?? 'not given'}. Modality: ${input.modality ?? 'not given'}.`,
          },
          { type: 'image_url', image_url: { url: `data:${input.contentType};base64,${image}` } },
        ];
        const r = await chatComplete(t, [{ role: 'user', content }]);
        return { ...base, text: r.text, output: { finish_reason: r.finishReason, usage: r.usage, model: r.model } };
      }
      const r = await kserveInfer(t, {
        id: randomUUID(),
        inputs: [{ name: 'image', shape: [1], datatype: 'BYTES', data: [image], parameters: { content_type: input.contentType } }],
        parameters: { body_site: input.bodySite ?? null, modality: input.modality ?? null },
      });
      return { ...base, text: null, output: r };
    });
  }

  /** A general call to a registered external model: tensors for KServe v2 models, messages for OpenAI-compatible ones. */
  async runInference(ctx: SubgraphContext, input: CloudInferenceInput): Promise<CloudInferenceAnswer> {
    requireViewer(ctx.viewer);
    const model = await loadModel(ctx, input.modelId);
    if (!model) throw errors.notFound('AI model');
    if (model.status !== AiModelStatus.active) throw errors.invalidField('modelId', 'must be an active model (this one is retired)');
    if (model.runtime === AiRuntime.builtin) {
      throw errors.invalidField('modelId', `is a built-in model: call it through its task (/api/ai/${model.task.replace(/_/g, '-')})`);
    }
    const parameters = input.parameters ?? undefined;
    if (parameters !== undefined && (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))) {
      throw errors.invalidField('parameters', 'must be a JSON object');
    }
    let tensors: Tensor[] | null = null;
    let messages: ChatMessage[] | null = null;
    if (model.runtime === AiRuntime.kserve_v2) {
      if (input.inputs === undefined || input.inputs === null)
        throw errors.invalidField('inputs', 'are required for an Open Inference Protocol model');
      tensors = checkTensors(input.inputs);
    } else {
      if (!input.messages?.length) throw errors.invalidField('messages', 'are required for an OpenAI-compatible model');
      messages = input.messages.map((m) => ({ role: m.role as ChatMessage['role'], content: m.content }));
    }
    const patient = await this.patientFor(ctx, input.patientId);
    const inputsUsed = tensors
      ? { inputs: tensors.map((t) => ({ name: t.name, shape: t.shape, datatype: t.datatype })), parameters: parameters ?? null }
      : { messages: messages!.length, parameters: parameters ?? null };
    return this.audited(ctx, { model, patient }, AiTask.general, async () => {
      const t = await this.target(model, ctx.em);
      const base = { model: summaryOf(model), disclaimer: DISCLAIMER, generatedAt: clock.now(), inputsUsed };
      if (tensors) {
        const r = await kserveInfer(t, {
          id: randomUUID(),
          inputs: tensors,
          ...(parameters ? { parameters: parameters as Record<string, unknown> } : {}),
        });
        return { ...base, text: null, output: r };
      }
      const p = (parameters ?? {}) as { temperature?: unknown; max_tokens?: unknown };
      const r = await chatComplete(t, messages!, {
        temperature: typeof p.temperature === 'number' ? p.temperature : undefined,
        maxTokens: typeof p.max_tokens === 'number' ? p.max_tokens : undefined,
      });
      return { ...base, text: r.text, output: { finish_reason: r.finishReason, usage: r.usage, model: r.model } };
    });
  }
}
