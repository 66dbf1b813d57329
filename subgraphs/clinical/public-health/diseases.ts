import raw from './notifiable-diseases.json';
import { bestIcd10Match, normalizeIcd10 } from './icd10';

/** A notifiable disease from the reference list (notifiable-diseases.json names its sources). */
export interface NotifiableDiseaseData {
  code: string;
  name: string;
  icd10: string[];
  immediatelyNotifiable: boolean;
  incubationDays: { min: number; max: number };
  basis: string[];
}

export const NOTIFIABLE_DISEASES: readonly NotifiableDiseaseData[] = raw.diseases;

const byCode = new Map(NOTIFIABLE_DISEASES.map((d) => [d.code, d]));

export function diseaseByCode(code: string): NotifiableDiseaseData | undefined {
  return byCode.get(code);
}

/** The notifiable disease an ICD-10 code names, or null when the code is not one of a notifiable disease. */
export function diseaseForIcd10(code: string): NotifiableDiseaseData | null {
  const canonical = normalizeIcd10(code);
  return canonical ? bestIcd10Match(NOTIFIABLE_DISEASES, (d) => d.icd10, canonical) : null;
}
