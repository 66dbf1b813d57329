import { config } from '../../../shared/config';
import { errors } from '../../../shared/errors';
import { logger } from '../../../shared/logger';
import { appRedis, redisKey } from '../../../shared/redis';
import { parsePeriod } from './periods';

/**
 * The aggregate health reporting system, behind one interface shaped like the DHIS2 Web API: a `dataValueSet` is
 * POSTed to `/api/dataValueSets` and answered with an ImportSummary (status, importCount with imported, updated,
 * ignored and deleted, and conflicts). DHIS2 keys a data value by data element, period, org unit, category option
 * combo and attribute option combo, so posting the same values again updates them: never a duplicate.
 *
 * `sandbox` (the default) answers like DHIS2 on loopback, keeping the values in Redis; `dhis2` posts to
 * REPORTSYS_URL with a personal access token (`Authorization: ApiToken ...`) or basic authentication.
 */
export interface DataValue {
  dataElement: string;
  categoryOptionCombo: string;
  attributeOptionCombo?: string;
  value: string;
}

export interface DataValueSet {
  dataSet: string;
  /** The day the data set was completed (`YYYY-MM-DD`): set once its period has ended. */
  completeDate?: string;
  period: string;
  orgUnit: string;
  attributeOptionCombo?: string;
  /** How DHIS2 reads the names: by UID when absent, by code when `CODE`. */
  dataSetIdScheme?: 'CODE';
  orgUnitIdScheme?: 'CODE';
  dataElementIdScheme?: 'CODE';
  dataValues: DataValue[];
}

export interface ImportConflict {
  object: string;
  value: string;
  errorCode: string | null;
}

export interface ImportSummary {
  status: 'SUCCESS' | 'WARNING' | 'ERROR';
  importCount: { imported: number; updated: number; ignored: number; deleted: number };
  conflicts: ImportConflict[];
  /** The ImportSummary object as the system answered it. */
  raw: Record<string, unknown>;
}

export interface ReportsysAdapter {
  readonly name: 'sandbox' | 'dhis2';
  pushDataValueSet(set: DataValueSet): Promise<ImportSummary>;
}

/** DHIS2 identifiers: 11 characters, a letter then letters and digits. */
const UID = /^[A-Za-z][A-Za-z0-9]{10}$/;

/** Whether a name is well formed for its id scheme: a UID, or a code (1 to 50 characters). */
const wellFormed = (name: string, scheme: 'CODE' | undefined) =>
  scheme === 'CODE' ? name.length >= 1 && name.length <= 50 : UID.test(name);

const IMPORT_OPTIONS = { importStrategy: 'CREATE_AND_UPDATE', dryRun: false, async: false } as const;

const valuesKey = () => redisKey('reportsys', 'sandbox', 'values');

/** The key of a data value in DHIS2: data element, period, org unit, category option combo, attribute option combo. */
const valueKey = (v: DataValue, set: DataValueSet) =>
  [v.dataElement, set.period, set.orgUnit, v.categoryOptionCombo, v.attributeOptionCombo ?? set.attributeOptionCombo ?? 'default'].join(
    '|',
  );

/**
 * Behaves like DHIS2's import: well-formed ids (UIDs, or codes where the set's id scheme fields say CODE) are taken
 * as existing (the sandbox has no metadata), a malformed one is a conflict with DHIS2's error code and message,
 * values must be whole numbers, and a value already stored for the same key is updated.
 */
class SandboxReportsys implements ReportsysAdapter {
  readonly name = 'sandbox' as const;

  async pushDataValueSet(set: DataValueSet): Promise<ImportSummary> {
    const conflicts: ImportConflict[] = [];
    const rejectedIndexes: number[] = [];
    const conflict = (object: string, errorCode: string, value: string) => conflicts.push({ object, value, errorCode });
    // Problems of the set as a whole abort the import: every value is ignored.
    if (!wellFormed(set.dataSet, set.dataSetIdScheme))
      conflict(set.dataSet, 'E7600', `Data set not found or not accessible: \`${set.dataSet}\``);
    if (!wellFormed(set.orgUnit, set.orgUnitIdScheme))
      conflict(set.orgUnit, 'E7603', `Org unit not found or not accessible: \`${set.orgUnit}\``);
    if (!parsePeriod(set.period)) conflict(set.period, 'E7611', `Period not valid: \`${set.period}\``);
    const fatal = conflicts.length > 0;
    let imported = 0;
    let updated = 0;
    if (fatal) {
      rejectedIndexes.push(...set.dataValues.map((_, i) => i));
    } else {
      const accepted: { key: string; value: string }[] = [];
      set.dataValues.forEach((v, i) => {
        const problem = !wellFormed(v.dataElement, set.dataElementIdScheme)
          ? { object: v.dataElement, code: 'E7610', text: `Data element not found or not accessible: \`${v.dataElement}\`` }
          : !UID.test(v.categoryOptionCombo)
            ? {
                object: v.categoryOptionCombo,
                code: 'E7613',
                text: `Category option combo not found or not accessible for writing data: \`${v.categoryOptionCombo}\``,
              }
            : !/^-?\d+$/.test(v.value)
              ? {
                  object: v.dataElement,
                  code: 'E7619',
                  text: `Value must match data element's \`${v.dataElement}\` type constraints: Data value is not an integer`,
                }
              : null;
        if (problem) {
          conflict(problem.object, problem.code, problem.text);
          rejectedIndexes.push(i);
        } else {
          accepted.push({ key: valueKey(v, set), value: v.value });
        }
      });
      if (accepted.length) {
        const stored = new Date().toISOString();
        const pipeline = appRedis().pipeline();
        for (const a of accepted) pipeline.hset(valuesKey(), a.key, JSON.stringify({ value: a.value, lastUpdated: stored }));
        const results = (await pipeline.exec()) ?? [];
        for (const [err, added] of results) {
          if (err) throw err;
          if (added === 1) imported++;
          else updated++;
        }
      }
    }
    const ignored = rejectedIndexes.length;
    const status = fatal ? 'ERROR' : conflicts.length ? 'WARNING' : 'SUCCESS';
    const raw = {
      responseType: 'ImportSummary',
      status,
      importOptions: IMPORT_OPTIONS,
      description: fatal ? 'Import process was aborted' : 'Import process completed successfully',
      importCount: { imported, updated, ignored, deleted: 0 },
      conflicts: conflicts.map((c) => ({ object: c.object, value: c.value, errorCode: c.errorCode })),
      rejectedIndexes,
      dataSetComplete: !fatal && set.completeDate ? set.completeDate : 'false',
    };
    logger.info(
      { dataSet: set.dataSet, period: set.period, orgUnit: set.orgUnit, imported, updated, ignored },
      'sandbox aggregate report received',
    );
    return { status, importCount: raw.importCount, conflicts, raw };
  }
}

/** Data values the sandbox holds, by DHIS2 key (`dataElement|period|orgUnit|categoryOptionCombo|attributeOptionCombo`). */
export async function sandboxDataValues(): Promise<Map<string, string>> {
  const all = await appRedis().hgetall(valuesKey());
  return new Map(Object.entries(all).map(([k, v]) => [k, (JSON.parse(v) as { value: string }).value]));
}

const STATUSES = ['SUCCESS', 'WARNING', 'ERROR'] as const;
const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * The ImportSummary in a DHIS2 answer: DHIS2 2.38 and later wrap it in a WebMessage (`response`), and answer 409
 * when there are conflicts; earlier versions answer the summary itself. Null when there is none.
 */
export function importSummaryOf(body: unknown): ImportSummary | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  const summary = (b.responseType === 'ImportSummary' ? b : (b.response as Record<string, unknown> | undefined)) ?? null;
  if (!summary || summary.responseType !== 'ImportSummary') return null;
  const counts = (summary.importCount ?? {}) as Record<string, unknown>;
  const status = STATUSES.find((s) => s === summary.status) ?? 'ERROR';
  const conflicts = Array.isArray(summary.conflicts) ? (summary.conflicts as Record<string, unknown>[]) : [];
  return {
    status,
    importCount: {
      imported: count(counts.imported),
      updated: count(counts.updated),
      ignored: count(counts.ignored),
      deleted: count(counts.deleted),
    },
    conflicts: conflicts.map((c) => ({
      object: String(c.object ?? ''),
      value: String(c.value ?? ''),
      errorCode: typeof c.errorCode === 'string' ? c.errorCode : null,
    })),
    raw: summary,
  };
}

/** A DHIS2 instance at REPORTSYS_URL. */
export class Dhis2Reportsys implements ReportsysAdapter {
  readonly name = 'dhis2' as const;

  constructor(private readonly opts: { url: string; token?: string; username?: string; password?: string; timeoutMs?: number }) {}

  private authorization(): string {
    if (this.opts.token) return `ApiToken ${this.opts.token}`;
    return `Basic ${Buffer.from(`${this.opts.username}:${this.opts.password}`).toString('base64')}`;
  }

  async pushDataValueSet(set: DataValueSet): Promise<ImportSummary> {
    const url = `${this.opts.url.replace(/\/+$/, '')}/api/dataValueSets?importStrategy=CREATE_AND_UPDATE`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: this.authorization() },
        body: JSON.stringify(set),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
      });
    } catch (err) {
      throw errors.serviceUnavailable(`The aggregate reporting system could not be reached: ${(err as Error).message}`);
    }
    const text = await res.text();
    if (res.status === 401 || res.status === 403) {
      throw errors.serviceUnavailable(`The aggregate reporting system refused the credentials (HTTP ${res.status})`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    const summary = importSummaryOf(body);
    if (!summary) throw errors.serviceUnavailable(`The aggregate reporting system answered HTTP ${res.status} without an import summary`);
    return summary;
  }
}

/** The configured adapter, chosen by REPORTSYS_PROVIDER at each use (configuration may change in tests). */
export function reportsys(): ReportsysAdapter {
  const cfg = config();
  if (cfg.REPORTSYS_PROVIDER === 'sandbox') return sandbox;
  if (!cfg.REPORTSYS_URL) throw errors.serviceUnavailable('REPORTSYS_PROVIDER=dhis2 needs REPORTSYS_URL');
  if (!cfg.REPORTSYS_TOKEN && !(cfg.REPORTSYS_USERNAME && cfg.REPORTSYS_PASSWORD)) {
    throw errors.serviceUnavailable('REPORTSYS_PROVIDER=dhis2 needs REPORTSYS_TOKEN, or REPORTSYS_USERNAME and REPORTSYS_PASSWORD');
  }
  return new Dhis2Reportsys({
    url: cfg.REPORTSYS_URL,
    token: cfg.REPORTSYS_TOKEN,
    username: cfg.REPORTSYS_USERNAME,
    password: cfg.REPORTSYS_PASSWORD,
  });
}

const sandbox = new SandboxReportsys();
