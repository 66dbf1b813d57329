import labTests from '../data/lab-tests.json';
import panicValues from '../data/panic-values.json';

/** The tests a clinician may order (data: key, name, LOINC code, specimen). */
export interface LabTest {
  key: string;
  name: string;
  loinc: string;
  specimen: string;
}

export const LAB_TESTS: readonly LabTest[] = labTests;
export const LAB_TEST_KEYS: readonly string[] = LAB_TESTS.map((t) => t.key);
const byKey = new Map(LAB_TESTS.map((t) => [t.key, t]));

export function labTest(key: string): LabTest | undefined {
  return byKey.get(key);
}

interface PanicLimit {
  loinc: string;
  unit: string;
  low: number | null;
  high: number | null;
}

const panicByCode = new Map<string, PanicLimit[]>();
for (const v of panicValues.values as PanicLimit[]) panicByCode.set(v.loinc, [...(panicByCode.get(v.loinc) ?? []), v]);

/**
 * Whether a numeric result lies beyond a panic limit. Limits are kept per LOINC code and unit; a result in another
 * unit is not compared (converting units is the laboratory's business, and guessing could hide a critical value).
 */
export function beyondPanicLimit(loinc: string, unit: string | null | undefined, value: number): boolean {
  const u = (unit ?? '').trim().toLowerCase();
  const limit = panicByCode.get(loinc)?.find((l) => l.unit.toLowerCase() === u);
  if (!limit) return false;
  return (limit.low !== null && value < limit.low) || (limit.high !== null && value > limit.high);
}
