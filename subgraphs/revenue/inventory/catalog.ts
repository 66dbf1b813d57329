import { parse } from 'csv-parse/sync';
import { amountProblem, isCurrencyCode, normalizeAmount } from '../../../shared/money';

/**
 * Reading a supplier's catalogue upload, row by row, with no database: CSV (csv-parse) or JSON objects in, for each
 * row either the product fields it sets or the reasons it is rejected. A bad row never stops the others; the service
 * then decides created, updated or unchanged against what is stored.
 *
 * Every CSV value is read as text and converted per column here (`cast` stays off): csv-parse's `cast: true` would
 * turn a GTIN's leading zeros or a `+254...` number into a number.
 */

/** The most rows one upload may carry (larger catalogues are sent in parts). */
export const MAX_CATALOG_ROWS = 5000;

/** The fields a row sets on a product. */
export interface ProductFields {
  sku: string;
  name: string;
  category: string | null;
  gtin: string | null;
  unit: string;
  prescriptionOnly: boolean;
  activeIngredient: string | null;
  description: string | null;
  priceAmount: string;
  currency: string;
  supplierQuantity: number | null;
  active: boolean;
}

/** A row as read, before its values are checked: `row` is its CSV line, or its 1-based place in a JSON list. */
export interface RawRow {
  row: number;
  values?: Record<string, unknown>;
  /** Why the row could not be read at all (a CSV record with the wrong number of columns, a JSON item that is no object). */
  error?: string;
}

export type CheckedRow =
  | { row: number; sku: string | null; fields: ProductFields; reasons?: undefined }
  | { row: number; sku: string | null; fields?: undefined; reasons: string[] };

/** Column names as a spreadsheet writes them: `Prescription Only`, `prescription-only`, `prescriptionOnly`. */
export function columnKey(name: string): string {
  return name
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

function keyed(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) out[columnKey(k)] = v;
  return out;
}

/** Rows of a CSV catalogue with a header line; records that cannot be read are rows with an error. */
export function rowsFromCsv(text: string): RawRow[] {
  const rows: RawRow[] = [];
  const records = parse(text, {
    columns: (header: string[]) => header.map(columnKey),
    bom: true,
    trim: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    info: true,
    on_skip: (err: { code?: string; message?: string } | undefined) => {
      const line = (err as { lines?: number } | undefined)?.lines ?? 0;
      const message =
        err?.code === 'CSV_RECORD_INCONSISTENT_COLUMNS'
          ? 'has a different number of columns than the header'
          : `cannot be read: ${err?.message ?? 'malformed'}`;
      rows.push({ row: line, error: message });
      return undefined;
    },
    // csv-parse reports records and skipped records in file order, so both land in `rows` in order.
    on_record: (entry: { record: Record<string, string>; info: { lines: number } }) => {
      rows.push({ row: entry.info.lines, values: entry.record });
      return entry;
    },
  } as never) as unknown[];
  void records;
  return rows;
}

/** Rows of a JSON catalogue: a list of objects. */
export function rowsFromJson(items: readonly unknown[]): RawRow[] {
  return items.map((item, i) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? { row: i + 1, values: item as Record<string, unknown> }
      : { row: i + 1, error: 'must be a JSON object' },
  );
}

const SKU = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/;

/** Whether `gtin` is a GS1 GTIN-8, -12, -13 or -14 whose last digit is its check digit (mod 10, weights 3 and 1 from the right). */
export function isGtin(gtin: string): boolean {
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(gtin)) return false;
  const digits = [...gtin].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

const BOOLEAN: Record<string, boolean> = { true: true, yes: true, y: true, '1': true, false: false, no: false, n: false, '0': false };

/** A value as text: strings trimmed, finite numbers written out; empty is absent. */
function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') return undefined;
  const t = value.trim();
  return t === '' ? undefined : t;
}

/** Checks one row and answers the product fields it sets, or every reason it is rejected. */
export function checkRow(raw: RawRow): CheckedRow {
  if (!raw.values) return { row: raw.row, sku: null, reasons: [`row ${raw.error ?? 'cannot be read'}`] };
  const v = keyed(raw.values);
  const reasons: string[] = [];
  const invalidType = (field: string) => {
    const value = v[field];
    return value !== undefined && value !== null && typeof value === 'object';
  };

  const textField = (field: string, max: number, required: boolean): string | null => {
    if (invalidType(field)) {
      reasons.push(`${field} must be text`);
      return null;
    }
    const value = text(v[field]);
    if (value === undefined) {
      if (required) reasons.push(`${field} is required`);
      return null;
    }
    if (value.length > max) {
      reasons.push(`${field} must be at most ${max} characters`);
      return null;
    }
    return value;
  };
  const booleanField = (field: string, fallback: boolean): boolean => {
    const value = text(v[field]);
    if (value === undefined) return fallback;
    const parsed = BOOLEAN[value.toLowerCase()];
    if (parsed === undefined) {
      reasons.push(`${field} must be true or false`);
      return fallback;
    }
    return parsed;
  };

  const sku = textField('sku', 64, true);
  if (sku !== null && !SKU.test(sku)) reasons.push('sku must be 1 to 64 letters, digits and . _ / - starting with a letter or digit');
  const name = textField('name', 200, true);
  const category = textField('category', 100, false);
  const unit = textField('unit', 50, false) ?? 'each';
  const activeIngredient = textField('active_ingredient', 200, false);
  const description = textField('description', 2000, false);

  let gtin: string | null = null;
  const rawGtin = v.gtin;
  if (typeof rawGtin === 'number') {
    reasons.push('gtin must be text: as a number it loses its leading zeros');
  } else {
    gtin = textField('gtin', 14, false);
    if (gtin !== null && !isGtin(gtin)) {
      reasons.push('gtin must be a GTIN-8, -12, -13 or -14 with a valid check digit');
      gtin = null;
    }
  }

  const prescriptionOnly = booleanField('prescription_only', false);
  const active = booleanField('active', true);

  const currency = textField('currency', 3, true)?.toUpperCase() ?? null;
  if (currency !== null && !isCurrencyCode(currency)) reasons.push('currency must be an ISO 4217 currency code such as KES');
  let priceAmount: string | null = null;
  const price = text(v.price);
  if (price === undefined || invalidType('price')) {
    reasons.push(invalidType('price') ? 'price must be an amount such as "125.50"' : 'price is required');
  } else {
    const problem = amountProblem(price, currency ?? undefined);
    if (problem) reasons.push(`price ${problem}`);
    else if (currency !== null && isCurrencyCode(currency)) priceAmount = normalizeAmount(price, currency, 'price');
  }

  let supplierQuantity: number | null = null;
  const quantity = text(v.supplier_quantity);
  if (quantity !== undefined) {
    if (!/^\d{1,8}$/.test(quantity)) reasons.push('supplier_quantity must be a whole number from 0 to 99999999');
    else supplierQuantity = Number(quantity);
  }

  if (reasons.length || sku === null || name === null || currency === null || priceAmount === null) {
    return { row: raw.row, sku, reasons: reasons.length ? reasons : ['row is incomplete'] };
  }
  return {
    row: raw.row,
    sku,
    fields: {
      sku,
      name,
      category,
      gtin,
      unit,
      prescriptionOnly,
      activeIngredient,
      description,
      priceAmount,
      currency,
      supplierQuantity,
      active,
    },
  };
}

/** Checks every row; a SKU (compared exactly, as stored) seen on an earlier row of the same upload rejects the later one. */
export function checkRows(rows: readonly RawRow[]): CheckedRow[] {
  const seen = new Map<string, number>();
  return rows.map((raw) => {
    const checked = checkRow(raw);
    if (!checked.fields) return checked;
    const key = checked.fields.sku;
    const first = seen.get(key);
    if (first !== undefined)
      return { row: checked.row, sku: checked.sku, reasons: [`sku ${checked.fields.sku} is already on row ${first} of this upload`] };
    seen.set(key, checked.row);
    return checked;
  });
}

/** The fields of `fields` whose values differ from the stored product (null and absent alike). */
export function changedFields(stored: ProductFields, fields: ProductFields): (keyof ProductFields)[] {
  return (Object.keys(fields) as (keyof ProductFields)[]).filter((k) => (stored[k] ?? null) !== (fields[k] ?? null));
}
