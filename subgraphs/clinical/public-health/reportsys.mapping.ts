import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { config } from '../../../shared/config';
import { errors } from '../../../shared/errors';
import { diseaseByCode } from './diseases';

/**
 * How counts become DHIS2 data values, from REPORTSYS_MAPPING (inline JSON or a file's path): the data set, the org
 * unit of each organization, and for each disease the data elements of cases (and deaths) with the category option
 * combo of each age band; for each syndrome a data element and combo. Ids are the reporting system's (DHIS2 UIDs).
 *
 * {
 *   "dataSet": "QX4ZTUbOt3a", "surveillanceDataSet": "Ix2HsbDMLea",
 *   "orgUnits": { "<organization id>": "DiszpKrYNg8" },
 *   "ageBands": [ { "code": "under_5", "maxYears": 4 }, { "code": "5_and_over" } ],
 *   "diseases": { "cholera": { "cases": "UsSUX0cpKsH", "deaths": "r6nrJANOqMw",
 *                 "categoryOptionCombos": { "under_5": "Prlt0C1RF0s", "5_and_over": "V6L425pT3A0" } } },
 *   "syndromes": { "fever_rash": { "dataElement": "hfdmMSPBgLG", "categoryOptionCombo": "HllvX50cXC0" } }
 * }
 */
const id = z.string().trim().min(1).max(64);

const ageBand = z.object({
  code: z.string().regex(/^[a-z0-9_]+$/, 'must be lower case letters, digits and _'),
  /** The band holds ages up to this many completed years; the last band has none (every older age). */
  maxYears: z.number().int().min(0).max(150).optional(),
});

const diseaseMapping = z
  .object({
    cases: id,
    deaths: id.optional(),
    categoryOptionCombo: id.optional(),
    categoryOptionCombos: z.record(z.string(), id).optional(),
  })
  .refine((d) => (d.categoryOptionCombo === undefined) !== (d.categoryOptionCombos === undefined), {
    message: 'needs either categoryOptionCombo or categoryOptionCombos (one per age band), not both',
  });

const schema = z
  .object({
    dataSet: id,
    surveillanceDataSet: id.optional(),
    attributeOptionCombo: id.optional(),
    orgUnits: z.record(z.string(), id),
    ageBands: z.array(ageBand).default([]),
    diseases: z.record(z.string(), diseaseMapping).default({}),
    syndromes: z.record(z.string(), z.object({ dataElement: id, categoryOptionCombo: id })).default({}),
  })
  .superRefine((m, ctx) => {
    for (const key of Object.keys(m.orgUnits)) {
      if (!z.uuid().safeParse(key).success) ctx.addIssue({ code: 'custom', path: ['orgUnits', key], message: 'is not an organization id' });
    }
    const units = Object.values(m.orgUnits);
    if (new Set(units).size !== units.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['orgUnits'],
        message: 'must give each organization its own org unit (a report per org unit would otherwise overwrite another)',
      });
    }
    const codes = m.ageBands.map((b) => b.code);
    if (new Set(codes).size !== codes.length) ctx.addIssue({ code: 'custom', path: ['ageBands'], message: 'band codes must be unique' });
    m.ageBands.forEach((band, i) => {
      const lastBand = i === m.ageBands.length - 1;
      if (lastBand !== (band.maxYears === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['ageBands', i, 'maxYears'],
          message: lastBand ? 'must be absent on the last band' : 'is required but on the last band',
        });
      }
      const previous = m.ageBands[i - 1]?.maxYears;
      if (band.maxYears !== undefined && previous !== undefined && band.maxYears <= previous) {
        ctx.addIssue({ code: 'custom', path: ['ageBands', i, 'maxYears'], message: "must be above the previous band's" });
      }
    });
    for (const [code, d] of Object.entries(m.diseases)) {
      if (!diseaseByCode(code)) ctx.addIssue({ code: 'custom', path: ['diseases', code], message: 'is not a notifiable disease code' });
      if (d.categoryOptionCombos) {
        if (!codes.length) ctx.addIssue({ code: 'custom', path: ['diseases', code], message: 'categoryOptionCombos needs ageBands' });
        for (const band of codes) {
          if (!d.categoryOptionCombos[band])
            ctx.addIssue({ code: 'custom', path: ['diseases', code, 'categoryOptionCombos', band], message: 'is missing' });
        }
        for (const key of Object.keys(d.categoryOptionCombos)) {
          if (key !== 'unknown' && !codes.includes(key)) {
            ctx.addIssue({
              code: 'custom',
              path: ['diseases', code, 'categoryOptionCombos', key],
              message: 'is not an age band (nor "unknown")',
            });
          }
        }
      }
    }
  });

export type ReportsysMapping = z.infer<typeof schema>;
export type DiseaseMapping = ReportsysMapping['diseases'][string];

let cache: { raw: string; mapping: ReportsysMapping } | undefined;

/** Reads a mapping (inline JSON, or a file's path); throws with every problem, each named by its path. */
export function parseReportsysMapping(raw: string): ReportsysMapping {
  const text = raw.trimStart().startsWith('{') ? raw : readFileSync(raw, 'utf8');
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.') || 'mapping'} ${i.message}`).join('; '));
  return parsed.data;
}

/** Checks REPORTSYS_MAPPING when it is set (at start: a bad one stops the start with the reason). */
export function checkReportsysMapping(): void {
  const raw = config().REPORTSYS_MAPPING;
  if (!raw) return;
  try {
    parseReportsysMapping(raw);
  } catch (err) {
    throw new Error(`Invalid configuration: REPORTSYS_MAPPING: ${(err as Error).message}`);
  }
}

/** The configured mapping; 503 saying what to set when there is none, or what is wrong with it. */
export function reportsysMapping(): ReportsysMapping {
  const raw = config().REPORTSYS_MAPPING;
  if (!raw) throw errors.serviceUnavailable('Aggregate reporting is not configured: set REPORTSYS_MAPPING (see docs/public-health.md)');
  if (cache?.raw === raw) return cache.mapping;
  try {
    cache = { raw, mapping: parseReportsysMapping(raw) };
  } catch (err) {
    throw errors.serviceUnavailable(`REPORTSYS_MAPPING is invalid: ${(err as Error).message}`);
  }
  return cache.mapping;
}

/** The age band holding `age` completed years (null: unknown age). */
export function ageBandOf(mapping: ReportsysMapping, age: number | null): string | null {
  if (age === null || age < 0) return null;
  return mapping.ageBands.find((b) => b.maxYears === undefined || age <= b.maxYears)?.code ?? null;
}
