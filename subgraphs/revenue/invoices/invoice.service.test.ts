import { percentToRate, priceLines } from './invoice.service';

describe('invoice lines', () => {
  it('turns a percentage into a rate exactly', () => {
    expect(['16', '7.25', '100', '0', '0.5', '12.3456'].map(percentToRate)).toEqual([
      '0.16',
      '0.0725',
      '1.00',
      '0.00',
      '0.005',
      '0.123456',
    ]);
  });

  it('prices lines in minor units: amounts, discounts, tax half-even, totals the sums of the lines', () => {
    const priced = priceLines({
      currency: 'KWD',
      items: [
        { description: 'a', quantity: 3, unitPrice: '1.255', discount: '0.005', taxRate: '5' },
        { description: 'b', quantity: 1, unitPrice: '0.010', taxRate: '12.5' },
      ],
    } as never);
    expect(priced.items.map((i) => [i.amount, i.discount, i.taxAmount, i.total])).toEqual([
      ['3.765', '0.005', '0.188', '3.948'],
      ['0.010', '0.000', '0.001', '0.011'],
    ]);
    expect(priced).toMatchObject({ subtotal: '3.775', discountTotal: '0.005', taxTotal: '0.189', totalAmount: '3.959' });
  });
});
