import { changedFields, checkRow, checkRows, columnKey, isGtin, rowsFromCsv, rowsFromJson } from './catalog';

describe('catalogue rows', () => {
  it('reads CSV values as text, so GTINs keep their leading zeros and prices their decimals', () => {
    const rows = checkRows(
      rowsFromCsv(
        'SKU,Name,GTIN,Price,Currency,Prescription Only,Supplier Quantity,Unit\n' +
          'AMX-500,"Amoxicillin 500 mg, box of 21",00012345600012,350.5,KES,yes,120,box of 21\n',
      ),
    );
    expect(rows).toEqual([
      {
        row: 2,
        sku: 'AMX-500',
        fields: expect.objectContaining({
          name: 'Amoxicillin 500 mg, box of 21',
          gtin: '00012345600012',
          priceAmount: '350.50',
          currency: 'KES',
          prescriptionOnly: true,
          supplierQuantity: 120,
          unit: 'box of 21',
          active: true,
          category: null,
        }),
      },
    ]);
  });

  it('rejects bad rows with every reason and keeps reading the rest', () => {
    const csv =
      'sku,name,price,currency,gtin,prescription_only\n' +
      'P-1,Paracetamol,12.00,KES,,no\n' +
      ',No sku,abc,KES,,\n' +
      'P-2,Shilling cents,10.005,KES,,maybe\n' +
      'P-3,Short row\n' +
      'P-4,Bad gtin,5,UGX,4006381333932,\n' +
      'P-5,Francs,5000,UGX,4006381333931,\n';
    const rows = checkRows(rowsFromCsv(csv));
    expect(rows.map((r) => [r.row, r.fields ? 'ok' : r.reasons])).toEqual([
      [2, 'ok'],
      [3, ['sku is required', 'price must be a non-negative amount such as "125.50"']],
      [4, ['prescription_only must be true or false', 'price KES amounts have at most 2 decimals']],
      [5, ['row has a different number of columns than the header']],
      [6, ['gtin must be a GTIN-8, -12, -13 or -14 with a valid check digit']],
      [7, 'ok'],
    ]);
  });

  it('takes JSON objects with snake_case or camelCase keys, and refuses what is not an object', () => {
    const rows = checkRows(
      rowsFromJson([
        { sku: 'G-1', name: 'Gauze', price: 120, currency: 'KES', prescriptionOnly: false, supplierQuantity: 3 },
        'not a row',
        { sku: 'G-2', name: { en: 'x' }, price: '1', currency: 'KES' },
        { sku: 'G-3', name: 'Gloves', price: '1', currency: 'KES', gtin: 12345670 },
      ]),
    );
    expect(rows[0]).toMatchObject({ row: 1, fields: { priceAmount: '120.00', supplierQuantity: 3, prescriptionOnly: false } });
    expect(rows[1]).toEqual({ row: 2, sku: null, reasons: ['row must be a JSON object'] });
    expect(rows[2].reasons).toEqual(['name must be text']);
    expect(rows[3].reasons).toEqual(['gtin must be text: as a number it loses its leading zeros']);
  });

  it('rejects a SKU repeated in the same upload, naming the first row', () => {
    const rows = checkRows(
      rowsFromJson([
        { sku: 'A', name: 'a', price: '1', currency: 'KES' },
        { sku: 'A', name: 'b', price: '2', currency: 'KES' },
      ]),
    );
    expect(rows[1].reasons).toEqual(['sku A is already on row 1 of this upload']);
  });

  it('checks GTIN check digits', () => {
    expect(isGtin('4006381333931')).toBe(true); // EAN-13
    expect(isGtin('96385074')).toBe(true); // EAN-8
    expect(isGtin('036000291452')).toBe(true); // UPC-A
    expect(isGtin('4006381333932')).toBe(false);
    expect(isGtin('400638133393')).toBe(false);
  });

  it('normalises column names and finds changed fields', () => {
    expect(columnKey(' Active Ingredient ')).toBe('active_ingredient');
    expect(columnKey('supplierQuantity')).toBe('supplier_quantity');
    const row = checkRow({ row: 1, values: { sku: 'A', name: 'a', price: '1', currency: 'KES' } });
    expect(changedFields(row.fields!, { ...row.fields!, priceAmount: '2.00' })).toEqual(['priceAmount']);
    expect(changedFields(row.fields!, { ...row.fields! })).toEqual([]);
  });
});
