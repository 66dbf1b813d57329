import { randomUUID } from 'node:crypto';
import type { EntityManager } from '../../../shared/db';
import { AiModel, AiRuntime, AiTask } from './ai.entity';
import { KB_SOURCE, KB_VALIDATION } from './differential';
import { REFERENCE_SOURCE, WHO_ANAEMIA_SOURCE } from './lab-interpretation';
import { CHA2DS2_VASC_SOURCE, LACE_SOURCE, PCE_SOURCE, QSOFA_SOURCE } from './risk-scores';
import { PANIC_SOURCE } from '../cds/panic';

/**
 * The models that ship with the platform and run inside it, offline. They are honest about what they are: a
 * knowledge-base ranking, rules over reference intervals, and published formulas. Seeded into the registry at
 * start (name and version), so every answer can name the model that produced it.
 */
export interface BuiltinModel {
  name: string;
  version: string;
  task: AiTask;
  description: string;
  validationReference: string;
}

export const BUILTIN_MODELS: readonly BuiltinModel[] = [
  {
    name: 'ccp-differential-kb',
    version: '1.0.0',
    task: AiTask.diagnosis,
    description: 'Ranks conditions by weighted overlap between the reported symptoms and a symptom-condition knowledge base.',
    validationReference: `${KB_VALIDATION} Knowledge: ${KB_SOURCE}`,
  },
  {
    name: 'ccp-lab-rules',
    version: '1.0.0',
    task: AiTask.lab_interpretation,
    description:
      'Interprets results against reference intervals and panic limits, and finds patterns across them (anaemia by red cell size, cytopenias, electrolytes, glucose, organ markers).',
    validationReference: `Rule-based, not a statistical model: each rule states its threshold and source. Reference intervals: ${REFERENCE_SOURCE} Anaemia: ${WHO_ANAEMIA_SOURCE}. Panic limits: ${PANIC_SOURCE}`,
  },
  {
    name: 'ccp-risk-scores',
    version: '1.0.0',
    task: AiTask.risk_stratification,
    description: 'Validated published scores: pooled cohort equations, CHA2DS2-VASc, qSOFA, LACE index.',
    validationReference: `Each score as published and validated by its authors: ${PCE_SOURCE}; ${CHA2DS2_VASC_SOURCE}; ${QSOFA_SOURCE}; ${LACE_SOURCE}`,
  },
];

/** Writes the built-in models into the registry (new ones added, their texts kept current). */
export async function seedBuiltinModels(em: EntityManager): Promise<void> {
  const meta = em.getMetadata().get(AiModel.name);
  const table = `"${meta.schema ?? em.config.get('schema')}"."${meta.tableName}"`;
  const now = new Date();
  const params: unknown[] = [];
  const rows = BUILTIN_MODELS.map((m) => {
    params.push(randomUUID(), m.name, m.version, m.task, AiRuntime.builtin, m.validationReference, m.description, 'active', 0, now, now);
    return '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
  });
  await em
    .getConnection()
    .execute(
      `insert into ${table} ("id", "name", "version", "task", "runtime", "validation_reference", "description", "status", "timeout_ms", "created_at", "updated_at") values ${rows.join(', ')} ` +
        `on conflict ("name", "version") do update set "validation_reference" = excluded."validation_reference", "description" = excluded."description", "updated_at" = excluded."updated_at" ` +
        `where ${table}."runtime" = 'builtin' and (${table}."validation_reference", ${table}."description") is distinct from (excluded."validation_reference", excluded."description")`,
      params,
    );
}
