import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { config } from '../../../shared/config';
import { errors } from '../../../shared/errors';
import { SYNDROMES } from '../surveillance/syndromes';
import { diseaseByCode, NOTIFIABLE_DISEASES } from './diseases';

/**
 * How counts become DHIS2 data values for one organization: its org unit, the data set, and for each disease the
 * data elements of cases (and deaths) with the category option combo of each age band; for each syndrome a data
 * element and combo. An organization's mapping is, first found: the one an administrator set (stored in
 * `reportsys_mappings`), the REPORTSYS_MAPPING seed when it names the organization, or the built-in default (the
 * organization's own id as the org unit's code, data elements coded from the notifiable disease and syndrome
 * lists). `idScheme` says how the reporting system reads the org unit, data set and data element names: `uid`
 * (DHIS2 UIDs) or `code` (their codes); category option combos are UIDs.
 *
 * REPORTSYS_MAPPING (inline JSON or a file's path) maps many organizations at once, with one set of data elements:
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

const syndromeMapping = z.object({ dataElement: id, categoryOptionCombo: id });

export type IdScheme = 'uid' | 'code';
export type AgeBand = z.infer<typeof ageBand>;
export type DiseaseMapping = z.infer<typeof diseaseMapping>;
export type SyndromeMapping = z.infer<typeof syndromeMapping>;

/** What one organization's reports are made of. */
export interface OrganizationMapping {
  idScheme: IdScheme;
  orgUnit: string;
  dataSet: string;
  surveillanceDataSet?: string;
  attributeOptionCombo?: string;
  ageBands: AgeBand[];
  diseases: Record<string, DiseaseMapping>;
  syndromes: Record<string, SyndromeMapping>;
}

/** A problem of a mapping, at its path (`diseases.cholera.categoryOptionCombos.under_5`). */
export interface MappingIssue {
  path: (string | number)[];
  message: string;
}

/** The rules every mapping keeps, seeded or set: age bands in order, known diseases and syndromes, a combo per band. */
export function mappingIssues(m: Pick<OrganizationMapping, 'ageBands' | 'diseases' | 'syndromes'>): MappingIssue[] {
  const issues: MappingIssue[] = [];
  const codes = m.ageBands.map((b) => b.code);
  if (new Set(codes).size !== codes.length) issues.push({ path: ['ageBands'], message: 'band codes must be unique' });
  m.ageBands.forEach((band, i) => {
    const lastBand = i === m.ageBands.length - 1;
    if (lastBand !== (band.maxYears === undefined)) {
      issues.push({
        path: ['ageBands', i, 'maxYears'],
        message: lastBand ? 'must be absent on the last band' : 'is required but on the last band',
      });
    }
    const previous = m.ageBands[i - 1]?.maxYears;
    if (band.maxYears !== undefined && previous !== undefined && band.maxYears <= previous) {
      issues.push({ path: ['ageBands', i, 'maxYears'], message: "must be above the previous band's" });
    }
  });
  for (const [code, d] of Object.entries(m.diseases)) {
    if (!diseaseByCode(code)) issues.push({ path: ['diseases', code], message: 'is not a notifiable disease code' });
    if (d.categoryOptionCombos) {
      if (!codes.length) issues.push({ path: ['diseases', code], message: 'categoryOptionCombos needs ageBands' });
      for (const band of codes) {
        if (!d.categoryOptionCombos[band]) issues.push({ path: ['diseases', code, 'categoryOptionCombos', band], message: 'is missing' });
      }
      for (const key of Object.keys(d.categoryOptionCombos)) {
        if (key !== 'unknown' && !codes.includes(key)) {
          issues.push({ path: ['diseases', code, 'categoryOptionCombos', key], message: 'is not an age band (nor "unknown")' });
        }
      }
    }
  }
  for (const code of Object.keys(m.syndromes)) {
    if (!SYNDROMES.some((s) => s.code === code)) issues.push({ path: ['syndromes', code], message: 'is not a monitored syndrome' });
  }
  return issues;
}

const seedSchema = z
  .object({
    dataSet: id,
    surveillanceDataSet: id.optional(),
    attributeOptionCombo: id.optional(),
    orgUnits: z.record(z.string(), id),
    ageBands: z.array(ageBand).default([]),
    diseases: z.record(z.string(), diseaseMapping).default({}),
    syndromes: z.record(z.string(), syndromeMapping).default({}),
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
    for (const issue of mappingIssues(m)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });

/** REPORTSYS_MAPPING: org units of many organizations, with one set of data elements. */
export type ReportsysMapping = z.infer<typeof seedSchema>;

let cache: { raw: string; mapping: ReportsysMapping } | undefined;

/** Reads a mapping (inline JSON, or a file's path); throws with every problem, each named by its path. */
export function parseReportsysMapping(raw: string): ReportsysMapping {
  const text = raw.trimStart().startsWith('{') ? raw : readFileSync(raw, 'utf8');
  const parsed = seedSchema.safeParse(JSON.parse(text));
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

/** The REPORTSYS_MAPPING seed, or null when it is not set; 503 saying what is wrong with an invalid one. */
export function seedMapping(): ReportsysMapping | null {
  const raw = config().REPORTSYS_MAPPING;
  if (!raw) return null;
  if (cache?.raw === raw) return cache.mapping;
  try {
    cache = { raw, mapping: parseReportsysMapping(raw) };
  } catch (err) {
    throw errors.serviceUnavailable(`REPORTSYS_MAPPING is invalid: ${(err as Error).message}`);
  }
  return cache.mapping;
}

/** The seed's mapping of one organization, when the seed names it. */
export function seededMapping(seed: ReportsysMapping | null, organizationId: string): OrganizationMapping | null {
  const orgUnit = seed?.orgUnits[organizationId];
  if (!seed || !orgUnit) return null;
  return {
    idScheme: 'uid',
    orgUnit,
    dataSet: seed.dataSet,
    ...(seed.surveillanceDataSet ? { surveillanceDataSet: seed.surveillanceDataSet } : {}),
    ...(seed.attributeOptionCombo ? { attributeOptionCombo: seed.attributeOptionCombo } : {}),
    ageBands: seed.ageBands,
    diseases: seed.diseases,
    syndromes: seed.syndromes,
  };
}

/** DHIS2's built-in default category option combo: the same UID in every DHIS2 instance. */
export const DEFAULT_CATEGORY_OPTION_COMBO = 'HllvX50cXC0';

/** The codes of the built-in default's data sets. */
export const DEFAULT_DATA_SET = 'NOTIFIABLE_DISEASES';
export const DEFAULT_SURVEILLANCE_DATA_SET = 'SYNDROMIC_SURVEILLANCE';

const upper = (code: string) => code.toUpperCase();

/**
 * The built-in mapping of an organization, by codes: the org unit whose code is the organization's id, data sets
 * NOTIFIABLE_DISEASES and SYNDROMIC_SURVEILLANCE, for every notifiable disease `<CODE>_CASES` and `<CODE>_DEATHS`,
 * for every syndrome `SYNDROME_<CODE>`, all in DHIS2's default category option combo (no age bands).
 */
export function defaultMapping(organizationId: string): OrganizationMapping {
  return {
    idScheme: 'code',
    orgUnit: organizationId,
    dataSet: DEFAULT_DATA_SET,
    surveillanceDataSet: DEFAULT_SURVEILLANCE_DATA_SET,
    ageBands: [],
    diseases: Object.fromEntries(
      NOTIFIABLE_DISEASES.map((d) => [
        d.code,
        { cases: `${upper(d.code)}_CASES`, deaths: `${upper(d.code)}_DEATHS`, categoryOptionCombo: DEFAULT_CATEGORY_OPTION_COMBO },
      ]),
    ),
    syndromes: Object.fromEntries(
      SYNDROMES.map((s) => [s.code, { dataElement: `SYNDROME_${upper(s.code)}`, categoryOptionCombo: DEFAULT_CATEGORY_OPTION_COMBO }]),
    ),
  };
}

/** The age band holding `age` completed years (null: unknown age). */
export function ageBandOf(mapping: Pick<OrganizationMapping, 'ageBands'>, age: number | null): string | null {
  if (age === null || age < 0) return null;
  return mapping.ageBands.find((b) => b.maxYears === undefined || age <= b.maxYears)?.code ?? null;
}
