import table from '../data/loinc-units.json';
import { ObservationCategory } from './observation.entity';

/** A LOINC code: up to seven digits, a hyphen and the check digit. */
export const LOINC_CODE = /^\d{1,7}-\d$/;

export interface LoincEntry {
  display: string;
  category: ObservationCategory;
  /** UCUM codes accepted for a quantity, the preferred first. */
  units: readonly string[];
}

/** Common LOINC codes with their names and units (data/loinc-units.json names its source). */
export const LOINC_CODES: Readonly<Record<string, LoincEntry>> = table.codes as Record<string, LoincEntry>;
for (const [code, entry] of Object.entries(LOINC_CODES)) {
  if (!(entry.category in ObservationCategory)) throw new Error(`loinc-units.json: ${code} has the unknown category ${entry.category}`);
}
