import panicValues from '../data/panic-values.json';

/**
 * Critical (panic) limits: the thresholds the platform already ships for lab results (data/panic-values.json, read
 * by the labs module too), applied to results sent for checking. A limit is compared only in its own unit.
 */
export const PANIC_SOURCE = panicValues.source;

export interface PanicLimit {
  loinc: string;
  name: string;
  unit: string;
  low: number | null;
  high: number | null;
}

export const PANIC_LIMITS: readonly PanicLimit[] = panicValues.values as PanicLimit[];

const sameUnit = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export interface PanicFinding {
  code: string | null;
  name: string | null;
  value: number;
  unit: string;
  critical: boolean;
  direction: 'low' | 'high' | null;
  low: number | null;
  high: number | null;
  known: boolean;
  message: string;
}

/** The limit of a test in a unit, by LOINC code, or by name (any letter case) when no code is given. */
export function panicLimit(code: string | null | undefined, name: string | null | undefined, unit: string): PanicLimit | undefined {
  const c = code?.trim();
  const n = name?.trim().toLowerCase();
  return PANIC_LIMITS.find((l) => (c ? l.loinc === c : l.name.toLowerCase() === n) && sameUnit(l.unit, unit));
}

export function checkPanic(result: { code?: string | null; name?: string | null; value: number; unit: string }): PanicFinding {
  const limit = panicLimit(result.code, result.name, result.unit);
  const base = {
    code: result.code?.trim() || limit?.loinc || null,
    name: limit?.name ?? result.name?.trim() ?? null,
    value: result.value,
    unit: result.unit.trim(),
  };
  if (!limit) {
    const units = PANIC_LIMITS.filter((l) =>
      result.code ? l.loinc === result.code.trim() : l.name.toLowerCase() === result.name?.trim().toLowerCase(),
    ).map((l) => l.unit);
    return {
      ...base,
      critical: false,
      direction: null,
      low: null,
      high: null,
      known: false,
      message: units.length
        ? `No panic limit in ${base.unit}; limits for this test are kept in ${units.join(', ')} (units are not converted)`
        : 'No panic limit is kept for this test: not checked',
    };
  }
  const direction =
    limit.low !== null && result.value < limit.low ? 'low' : limit.high !== null && result.value > limit.high ? 'high' : null;
  const range = `${limit.low ?? '—'} to ${limit.high ?? '—'} ${limit.unit}`;
  return {
    ...base,
    critical: direction !== null,
    direction,
    low: limit.low,
    high: limit.high,
    known: true,
    message: direction
      ? `Critical ${direction} ${limit.name}: ${result.value} ${limit.unit} is beyond the panic limit (${range}); notify the responsible clinician now`
      : `${limit.name} ${result.value} ${limit.unit} is within the panic limits (${range})`,
  };
}
