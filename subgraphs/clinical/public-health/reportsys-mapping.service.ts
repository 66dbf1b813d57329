import type { EntityManager } from '../../../shared/db';
import { errors, type FieldIssue } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { requirePlatformPermission } from '../../../shared/permissions';
import { organizationStatus } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { ReportsysOrganizationMapping } from './reportsys.entity';
import {
  defaultMapping,
  mappingIssues,
  seededMapping,
  seedMapping,
  type DiseaseMapping,
  type OrganizationMapping,
  type SyndromeMapping,
} from './reportsys.mapping';
import { ReportsysIdScheme, ReportsysMappingSource, type ReportsysMapping, type ReportsysMappingInput } from './reportsys.types';

/** An organization's mapping as reports use it, and where it comes from. */
export interface EffectiveMapping {
  organizationId: string;
  source: ReportsysMappingSource;
  mapping: OrganizationMapping;
  updatedAt?: Date | null;
  updatedBy?: string | null;
}

const fromRow = (row: ReportsysOrganizationMapping): OrganizationMapping => ({
  idScheme: row.idScheme,
  orgUnit: row.orgUnit,
  dataSet: row.dataSet,
  ...(row.surveillanceDataSet ? { surveillanceDataSet: row.surveillanceDataSet } : {}),
  ...(row.attributeOptionCombo ? { attributeOptionCombo: row.attributeOptionCombo } : {}),
  ageBands: row.ageBands,
  diseases: row.diseases,
  syndromes: row.syndromes,
});

/**
 * The mappings of these organizations: the one an administrator set, else the REPORTSYS_MAPPING seed's, else the
 * built-in default. One query for all of them.
 */
export async function mappingsOf(em: EntityManager, organizationIds: string[]): Promise<Map<string, EffectiveMapping>> {
  const seed = seedMapping();
  const ids = [...new Set(organizationIds)];
  const rows = ids.length ? await em.find(ReportsysOrganizationMapping, { organizationId: { $in: ids } }) : [];
  const stored = new Map(rows.map((r) => [r.organizationId, r]));
  const out = new Map<string, EffectiveMapping>();
  for (const organizationId of ids) {
    const row = stored.get(organizationId);
    const seeded = row ? null : seededMapping(seed, organizationId);
    out.set(
      organizationId,
      row
        ? { organizationId, source: ReportsysMappingSource.set, mapping: fromRow(row), updatedAt: row.updatedAt, updatedBy: row.updatedBy }
        : seeded
          ? { organizationId, source: ReportsysMappingSource.seed, mapping: seeded }
          : { organizationId, source: ReportsysMappingSource.built_in, mapping: defaultMapping(organizationId) },
    );
  }
  return out;
}

/** The organizations with a mapping of their own: set by an administrator or named by the seed. */
export async function mappedOrganizations(em: EntityManager): Promise<string[]> {
  const rows = await em.find(ReportsysOrganizationMapping, {}, { fields: ['organizationId'] });
  return [...new Set([...rows.map((r) => r.organizationId), ...Object.keys(seedMapping()?.orgUnits ?? {})])];
}

/** An organization named in input, checked with the org subgraph (it owns organizations): 404 when there is none. */
export async function requireOrganization(ctx: SubgraphContext, organizationId: string): Promise<void> {
  if (!isUuid(organizationId) || !(await organizationStatus(ctx, organizationId))) throw errors.notFound('Organization');
}

export function mappingView(e: EffectiveMapping): ReportsysMapping {
  const m = e.mapping;
  return {
    organizationId: e.organizationId,
    source: e.source,
    idScheme: m.idScheme as ReportsysIdScheme,
    orgUnit: m.orgUnit,
    dataSet: m.dataSet,
    surveillanceDataSet: m.surveillanceDataSet ?? null,
    attributeOptionCombo: m.attributeOptionCombo ?? null,
    ageBands: m.ageBands.map((b) => ({ code: b.code, maxYears: b.maxYears ?? null })),
    diseases: Object.entries(m.diseases)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([code, d]) => ({
        code,
        cases: d.cases,
        deaths: d.deaths ?? null,
        categoryOptionCombo: d.categoryOptionCombo ?? null,
        categoryOptionCombos: Object.entries(d.categoryOptionCombos ?? {}).map(([band, categoryOptionCombo]) => ({
          band,
          categoryOptionCombo,
        })),
      })),
    syndromes: Object.entries(m.syndromes)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([code, s]) => ({ code, dataElement: s.dataElement, categoryOptionCombo: s.categoryOptionCombo })),
    updatedAt: e.updatedAt ?? null,
    updatedBy: e.updatedBy ?? null,
  };
}

/** DHIS2 identifiers: 11 characters, a letter then letters and digits. */
export const DHIS2_UID = /^[A-Za-z][A-Za-z0-9]{10}$/;
/** DHIS2 codes are at most 50 characters. */
export const DHIS2_CODE_MAX = 50;

const UID_MESSAGE = 'must be a DHIS2 UID: 11 characters, a letter then letters and digits';

function nameProblem(value: string, scheme: ReportsysIdScheme): string | null {
  if (scheme === ReportsysIdScheme.uid) return DHIS2_UID.test(value) ? null : UID_MESSAGE;
  return value.length <= DHIS2_CODE_MAX ? null : `must be a code of at most ${DHIS2_CODE_MAX} characters`;
}

/** The input as a mapping, or every problem with it, each named by its input path (`diseases.0.cases`). */
function mappingOfInput(input: ReportsysMappingInput): OrganizationMapping {
  const issues: FieldIssue[] = [];
  const scheme = input.idScheme ?? ReportsysIdScheme.uid;
  const name = (field: string, value: string | undefined, asScheme: ReportsysIdScheme = scheme) => {
    const problem = value === undefined ? null : nameProblem(value.trim(), asScheme);
    if (problem) issues.push({ field, message: problem });
    return value?.trim();
  };
  const uid = (field: string, value: string | undefined) => name(field, value, ReportsysIdScheme.uid);

  const ageBands = (input.ageBands ?? []).map((b, i) => {
    if (!/^[a-z0-9_]+$/.test(b.code)) issues.push({ field: `ageBands.${i}.code`, message: 'must be lower case letters, digits and _' });
    if (b.maxYears != null && (b.maxYears < 0 || b.maxYears > 150))
      issues.push({ field: `ageBands.${i}.maxYears`, message: 'must be 0 to 150' });
    return { code: b.code, ...(b.maxYears != null ? { maxYears: b.maxYears } : {}) };
  });
  const diseaseIndex = new Map<string, number>();
  const diseases: Record<string, DiseaseMapping> = {};
  (input.diseases ?? []).forEach((d, i) => {
    const at = `diseases.${i}`;
    if (diseaseIndex.has(d.code)) issues.push({ field: `${at}.code`, message: 'is listed twice' });
    diseaseIndex.set(d.code, i);
    if ((d.categoryOptionCombo === undefined) === (d.categoryOptionCombos === undefined || d.categoryOptionCombos === null)) {
      issues.push({ field: at, message: 'needs either categoryOptionCombo or categoryOptionCombos (one per age band), not both' });
    }
    const bands: Record<string, string> = {};
    (d.categoryOptionCombos ?? []).forEach((c, j) => {
      if (c.band in bands) issues.push({ field: `${at}.categoryOptionCombos.${j}.band`, message: 'is listed twice' });
      bands[c.band] = uid(`${at}.categoryOptionCombos.${j}.categoryOptionCombo`, c.categoryOptionCombo)!;
    });
    diseases[d.code] = {
      cases: name(`${at}.cases`, d.cases)!,
      ...(d.deaths !== undefined ? { deaths: name(`${at}.deaths`, d.deaths) } : {}),
      ...(d.categoryOptionCombo !== undefined ? { categoryOptionCombo: uid(`${at}.categoryOptionCombo`, d.categoryOptionCombo) } : {}),
      ...(d.categoryOptionCombos ? { categoryOptionCombos: bands } : {}),
    };
  });
  const syndromeIndex = new Map<string, number>();
  const syndromes: Record<string, SyndromeMapping> = {};
  (input.syndromes ?? []).forEach((s, i) => {
    if (syndromeIndex.has(s.code)) issues.push({ field: `syndromes.${i}.code`, message: 'is listed twice' });
    syndromeIndex.set(s.code, i);
    syndromes[s.code] = {
      dataElement: name(`syndromes.${i}.dataElement`, s.dataElement)!,
      categoryOptionCombo: uid(`syndromes.${i}.categoryOptionCombo`, s.categoryOptionCombo)!,
    };
  });
  const mapping: OrganizationMapping = {
    idScheme: scheme,
    orgUnit: name('orgUnit', input.orgUnit)!,
    dataSet: name('dataSet', input.dataSet)!,
    ...(input.surveillanceDataSet !== undefined ? { surveillanceDataSet: name('surveillanceDataSet', input.surveillanceDataSet) } : {}),
    ...(input.attributeOptionCombo !== undefined ? { attributeOptionCombo: uid('attributeOptionCombo', input.attributeOptionCombo) } : {}),
    ageBands,
    diseases,
    syndromes,
  };
  // The rules every mapping keeps, their paths put back in the input's terms (lists, not keys).
  for (const issue of mappingIssues(mapping)) {
    const [list, key, sub] = issue.path;
    const field =
      list === 'diseases'
        ? `diseases.${diseaseIndex.get(String(key))}${sub ? `.${sub}` : issue.message.startsWith('is not') ? '.code' : ''}`
        : list === 'syndromes'
          ? `syndromes.${syndromeIndex.get(String(key))}.code`
          : issue.path.join('.');
    issues.push({ field, message: issue.message });
  }
  if (issues.length) throw errors.validation(issues);
  return mapping;
}

export class ReportsysMappingService {
  /** An organization's mapping as its reports use it (public health administrators). */
  async get(ctx: SubgraphContext, organizationId: string): Promise<ReportsysMapping> {
    requirePlatformPermission(ctx.viewer, 'public-health');
    await requireOrganization(ctx, organizationId);
    return mappingView((await mappingsOf(ctx.em, [organizationId])).get(organizationId)!);
  }

  /**
   * Sets an organization's mapping, replacing the one it had (public health administrators). Its org unit may not
   * be another organization's: their reports would overwrite each other.
   */
  async set(ctx: SubgraphContext, organizationId: string, input: ReportsysMappingInput): Promise<ReportsysMapping> {
    const viewer = requirePlatformPermission(ctx.viewer, 'public-health');
    await requireOrganization(ctx, organizationId);
    const mapping = mappingOfInput(input);
    const taken =
      (await ctx.em.count(ReportsysOrganizationMapping, {
        orgUnit: mapping.orgUnit,
        idScheme: mapping.idScheme,
        organizationId: { $ne: organizationId },
      })) > 0 ||
      (mapping.idScheme === 'uid' &&
        Object.entries(seedMapping()?.orgUnits ?? {}).some(([org, unit]) => unit === mapping.orgUnit && org !== organizationId));
    if (taken) throw errors.invalidField('orgUnit', "is another organization's org unit: their reports would overwrite each other");
    const fields = {
      idScheme: mapping.idScheme,
      orgUnit: mapping.orgUnit,
      dataSet: mapping.dataSet,
      surveillanceDataSet: mapping.surveillanceDataSet ?? null,
      attributeOptionCombo: mapping.attributeOptionCombo ?? null,
      ageBands: mapping.ageBands,
      diseases: mapping.diseases,
      syndromes: mapping.syndromes,
      updatedBy: viewer.userId,
    };
    const row = await ctx.em.findOne(ReportsysOrganizationMapping, { organizationId });
    if (row) ctx.em.assign(row, fields);
    else ctx.em.create(ReportsysOrganizationMapping, { organizationId, ...fields });
    await ctx.em.flush();
    return this.get(ctx, organizationId);
  }

  /** Forgets the mapping an administrator set: the organization reports by the seed or the built-in default again. */
  async reset(ctx: SubgraphContext, organizationId: string): Promise<ReportsysMapping> {
    requirePlatformPermission(ctx.viewer, 'public-health');
    await requireOrganization(ctx, organizationId);
    await ctx.em.nativeDelete(ReportsysOrganizationMapping, { organizationId });
    return this.get(ctx, organizationId);
  }
}
