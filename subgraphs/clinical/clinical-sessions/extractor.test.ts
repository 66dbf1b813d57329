import 'reflect-metadata';
import { extract, type ProposedItem } from './extractor';

const TODAY = '2026-03-02';
const of = (items: ProposedItem[], kind: ProposedItem['kind']) => items.filter((i) => i.kind === kind);

describe('the built-in extractor', () => {
  it('reads the short consultation: vitals, an allergy and a prescription, each with its span', () => {
    const text = 'BP 150/95, pulse 88, allergic to penicillin, start amoxicillin 500 mg three times daily for 7 days';
    const items = extract(text, TODAY);
    expect(items.map((i) => i.kind)).toEqual(['vital_sign', 'vital_sign', 'allergy', 'medication']);
    const [bp, pulse, allergy, med] = items;
    expect(bp.vitalSign).toEqual({ sign: 'blood_pressure', value: 150, secondValue: 95, unit: 'mmHg' });
    expect(bp.span).toEqual({ start: 0, end: 9, text: 'BP 150/95' });
    expect(pulse.vitalSign).toEqual({ sign: 'heart_rate', value: 88, secondValue: null, unit: '/min' });
    expect(pulse.span.text).toBe('pulse 88');
    expect(allergy.allergy).toEqual({ substance: 'Penicillin', reaction: null, category: 'medication', codeSystem: 'ATC', code: 'J01C' });
    expect(allergy.span.text).toBe('allergic to penicillin');
    expect(med.medication).toEqual({
      name: 'Amoxicillin',
      rxnormCode: '723',
      dose: 500,
      unit: 'mg',
      route: null,
      frequency: 'three times daily',
      frequencyCode: 'TID',
      duration: '7 days',
      action: 'start',
    });
    expect(med.span.text).toBe('start amoxicillin 500 mg three times daily for 7 days');
    for (const i of items) {
      expect(text.slice(i.span.start, i.span.end)).toBe(i.span.text);
      expect(i.confidence).toBeGreaterThan(0.5);
      expect(i.confidence).toBeLessThan(1);
    }
  });

  it('is deterministic', () => {
    const text = 'Temp 38.2, SpO2 96%. Hypertension and type 2 diabetes. Start metformin 500 mg twice daily by mouth.';
    expect(extract(text, TODAY)).toEqual(extract(text, TODAY));
  });

  it('reads every vital sign it knows, converting Fahrenheit and pounds, and ignores implausible values', () => {
    const items = of(
      extract('Blood pressure is 128 over 82 mmHg. Temp 101.3 F. Respiratory rate 18. Sats 97%. Weight 154 lbs. Heart rate 900.', TODAY),
      'vital_sign',
    );
    expect(items.map((i) => i.vitalSign)).toEqual([
      { sign: 'blood_pressure', value: 128, secondValue: 82, unit: 'mmHg' },
      { sign: 'temperature', value: 38.5, secondValue: null, unit: 'Cel' },
      { sign: 'respiratory_rate', value: 18, secondValue: null, unit: '/min' },
      { sign: 'oxygen_saturation', value: 97, secondValue: null, unit: '%' },
      { sign: 'weight', value: 69.9, secondValue: null, unit: 'kg' },
    ]);
    expect(of(extract('BP 80/120', TODAY), 'vital_sign')).toEqual([]);
  });

  it('reads several allergens and the reaction, and leaves negated allergies out', () => {
    const items = of(extract('She is allergic to sulfa and peanuts (hives). Not allergic to latex.', TODAY), 'allergy');
    expect(items.map((i) => i.allergy)).toEqual([
      { substance: 'Sulfa', reaction: 'hives', category: 'medication', codeSystem: 'ATC', code: 'J01E' },
      { substance: 'Peanut', reaction: 'hives', category: 'food', codeSystem: null, code: null },
    ]);
    const drug = of(extract('Allergy to amoxicillin causes a rash.', TODAY), 'allergy')[0];
    expect(drug.allergy).toMatchObject({ substance: 'Amoxicillin', reaction: 'rash', codeSystem: 'RxNorm', code: '723' });
    const unknown = of(extract('Allergic to kiwi, otherwise well.', TODAY), 'allergy')[0];
    expect(unknown.allergy).toMatchObject({ substance: 'Kiwi', category: null });
    expect(unknown.confidence).toBeLessThan(drug.confidence);
  });

  it('proposes a medicine only with a dose and a frequency, never one being stopped or the allergen itself', () => {
    expect(of(extract('Stop ibuprofen 400 mg three times daily.', TODAY), 'medication')).toEqual([]);
    expect(of(extract('He takes paracetamol sometimes.', TODAY), 'medication')).toEqual([]);
    expect(of(extract('Allergic to penicillin.', TODAY), 'medication')).toEqual([]);
    const [a, b] = of(extract('Continue amlodipine 5 mg once daily and add salbutamol inhaler 2 puffs as needed.', TODAY), 'medication');
    expect(a.medication).toMatchObject({ name: 'Amlodipine', dose: 5, unit: 'mg', frequencyCode: 'QD', action: 'continue' });
    expect(b.medication).toMatchObject({
      name: 'Salbutamol',
      rxnormCode: '435',
      dose: 2,
      unit: 'puff',
      route: 'inhalation',
      frequencyCode: 'PRN',
    });
    const q8 = of(extract('Give ceftriaxone 1 g IV every 12 hours for five days', TODAY), 'medication')[0];
    expect(q8.medication).toMatchObject({
      route: 'intravenous',
      frequency: 'every 12 hours',
      frequencyCode: 'Q12H',
      duration: '5 days',
      unit: 'g',
    });
  });

  it('codes problems with ICD-10-CM, skipping negated ones and family history', () => {
    const items = of(extract('Known hypertension. No fever. Family history of diabetes. Assessment: malaria, UTI.', TODAY), 'problem');
    expect(items.map((i) => i.problem!.icd10Code)).toEqual(['I10', 'B54', 'N39.0']);
    expect(items[2].confidence).toBeLessThan(items[0].confidence);
    expect(of(extract('Diabetes, well controlled.', TODAY), 'problem')[0]).toMatchObject({
      confidence: 0.6,
      problem: { icd10Code: 'E11.9' },
    });
  });

  it('dates planned follow-ups from today', () => {
    const [f] = of(extract('Review in two weeks with the results.', TODAY), 'follow_up');
    expect(f.followUp).toEqual({ description: 'Review in two weeks with the results', intervalDays: 14, dueDate: '2026-03-16' });
    expect(of(extract('Follow up as needed.', TODAY), 'follow_up')).toEqual([]);
  });
});
