/**
 * National identity number formats of the countries whose health information exchanges the platform can ask
 * (SPEC: KE, GH, NG, ZA, TZ, UG, RW, ET). Reference data: written for this project from the issuing agencies'
 * published formats as summarized in the Wikipedia article "National identification number" (CC BY-SA 4.0) and the
 * agencies' own pages named below. A number that does not have its country's shape is refused before any exchange
 * is asked. Shapes only: whether a number was issued is the exchange's answer.
 */

export const HIE_COUNTRIES = ['KE', 'GH', 'NG', 'ZA', 'TZ', 'UG', 'RW', 'ET'] as const;
export type HieCountry = (typeof HIE_COUNTRIES)[number];

interface NationalIdFormat {
  name: string;
  /** Written as a person would, for messages. */
  example: string;
  /** Checked on the number with spaces removed and letters upper-cased. */
  pattern: RegExp;
  /** Further rules (dates, check digits); a reason when the number breaks one. */
  check?: (id: string) => string | null;
  source: string;
}

/** Luhn (ISO/IEC 7812-1 annex B) over all digits, the last being the check digit. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function validDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const NATIONAL_ID_FORMATS: Record<HieCountry, NationalIdFormat> = {
  ZA: {
    name: 'South African identity number',
    example: '8001015009087',
    pattern: /^\d{13}$/,
    check: (id) => {
      // YYMMDD SSSS C A Z: birth date, sequence (gender), citizenship 0/1/2, a digit, Luhn check digit.
      const [yy, mm, dd] = [Number(id.slice(0, 2)), Number(id.slice(2, 4)), Number(id.slice(4, 6))];
      if (!validDate(2000 + yy, mm, dd) && !validDate(1900 + yy, mm, dd)) return 'does not start with a valid birth date (YYMMDD)';
      if (!'012'.includes(id[10])) return 'has a citizenship digit (11th) other than 0, 1 or 2';
      if (!luhnValid(id)) return 'fails its Luhn check digit';
      return null;
    },
    source: 'Department of Home Affairs, Republic of South Africa: identity number structure YYMMDDSSSSCAZ',
  },
  KE: {
    name: 'Kenyan national identity card number',
    example: '12345678',
    pattern: /^\d{6,9}$/,
    source: 'National Registration Bureau, Kenya: ID card serial numbers of up to 8 digits; Maisha Namba of 9',
  },
  GH: {
    name: 'Ghana Card personal identification number',
    example: 'GHA-123456789-0',
    pattern: /^GHA-?\d{9}-?\d$/,
    source: 'National Identification Authority, Ghana: Ghana Card PIN GHA-XXXXXXXXX-X',
  },
  NG: {
    name: 'Nigerian National Identification Number (NIN)',
    example: '12345678901',
    pattern: /^\d{11}$/,
    source: 'National Identity Management Commission, Nigeria: 11-digit NIN',
  },
  TZ: {
    name: 'Tanzanian NIDA number',
    example: '19800101-12345-00001-23',
    pattern: /^\d{8}-?\d{5}-?\d{5}-?\d{2}$/,
    check: (id) => {
      const digits = id.replace(/-/g, '');
      return validDate(Number(digits.slice(0, 4)), Number(digits.slice(4, 6)), Number(digits.slice(6, 8)))
        ? null
        : 'does not start with a valid birth date (YYYYMMDD)';
    },
    source: 'National Identification Authority (NIDA), Tanzania: 20 digits starting with the birth date',
  },
  UG: {
    name: 'Ugandan National Identification Number (NIN)',
    example: 'CM12345678ABCD',
    pattern: /^[CA][MF][A-Z0-9]{12}$/,
    source: 'National Identification and Registration Authority, Uganda: 14 characters, C (citizen) or A, then M or F',
  },
  RW: {
    name: 'Rwandan national identity number',
    example: '1199080012345678',
    pattern: /^[1-3]\d{15}$/,
    check: (id) => {
      const year = Number(id.slice(1, 5));
      if (year < 1900 || year > new Date().getUTCFullYear()) return 'does not carry a plausible birth year (digits 2 to 5)';
      if (id[5] !== '7' && id[5] !== '8') return 'has a sex digit (6th) other than 7 or 8';
      return null;
    },
    source: 'National Identification Agency (NIDA), Rwanda: 16 digits, status, birth year, sex (7/8), sequence, check',
  },
  ET: {
    name: 'Ethiopian Fayda number (FIN, 12 digits, or FAN, 16 digits)',
    example: '123456789012',
    pattern: /^(\d{12}|\d{16})$/,
    source: 'National ID Program (Fayda), Ethiopia: FIN of 12 digits, FAN of 16',
  },
};

/** The number as issued, cleaned (spaces gone, letters upper case), or the reason it is not one of `country`'s. */
export function checkNationalId(country: HieCountry, raw: string): { ok: true; id: string } | { ok: false; reason: string } {
  const format = NATIONAL_ID_FORMATS[country];
  const id = raw.replace(/\s+/g, '').toUpperCase();
  if (!format.pattern.test(id)) return { ok: false, reason: `is not a ${format.name} (such as ${format.example})` };
  const broken = format.check?.(id);
  return broken ? { ok: false, reason: `${broken}: not a ${format.name}` } : { ok: true, id };
}
