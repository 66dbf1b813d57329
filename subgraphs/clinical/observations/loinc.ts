import table from '../data/loinc-units.json';

/** A LOINC code: up to seven digits, a hyphen and the check digit. */
export const LOINC_CODE = /^\d{1,7}-\d$/;

export interface LoincEntry {
  display: string;
  category: string;
  /** UCUM codes accepted for a quantity, the preferred first. */
  units: readonly string[];
}

/** Common LOINC codes with their names and units (data/loinc-units.json names its source). */
export const LOINC_CODES: Readonly<Record<string, LoincEntry>> = table.codes;
