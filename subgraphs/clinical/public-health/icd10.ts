/**
 * ICD-10 codes as clinicians write them (`A00`, `A00.1`, `U07.1`, `B05.9`): a letter, two digits, and optionally a
 * dot and up to four more characters (ICD-10 national modifications extend the WHO four-character codes).
 */
export const ICD10 = /^[A-Z][0-9]{2}(\.[0-9A-Z]{1,4})?$/;

/** The code in its canonical spelling (upper case, trimmed), or null when it is not an ICD-10 code. */
export function normalizeIcd10(value: string): string | null {
  const code = value.trim().toUpperCase();
  return ICD10.test(code) ? code : null;
}

/** Whether `code` is `prefix` or a subdivision of it (`A00` covers `A00.9`; `A98.4` covers `A98.4` only). */
export function icd10Covers(prefix: string, code: string): boolean {
  if (code === prefix) return true;
  return prefix.includes('.') ? code.startsWith(prefix) : code.startsWith(`${prefix}.`);
}

/** The entry whose prefixes cover `code` most specifically (the longest prefix), or null. */
export function bestIcd10Match<T>(entries: readonly T[], prefixesOf: (entry: T) => readonly string[], code: string): T | null {
  let best: T | null = null;
  let length = 0;
  for (const entry of entries) {
    for (const prefix of prefixesOf(entry)) {
      if (prefix.length > length && icd10Covers(prefix, code)) {
        best = entry;
        length = prefix.length;
      }
    }
  }
  return best;
}
