import { differential, recognizeSymptoms } from './differential';
import { interpretLabs, parseRange } from './lab-interpretation';

describe('built-in differential (symptom knowledge base)', () => {
  const top = (...texts: string[]) => differential(recognizeSymptoms(texts).symptoms)[0];

  it('recognises symptoms in free text and reports what it does not know', () => {
    expect(recognizeSymptoms(['High temperature', 'Rigors', 'headache']).symptoms).toEqual(['fever', 'chills', 'headache']);
    expect(recognizeSymptoms(['persistent cough and night sweats']).symptoms).toEqual(['cough_3_weeks', 'night_sweats']);
    expect(recognizeSymptoms(['glowing toenails', 'fever'])).toEqual({ symptoms: ['fever'], unrecognized: ['glowing toenails'] });
  });

  it('ranks the condition whose picture fits best first, with the evidence for it', () => {
    expect(top('fever', 'chills', 'headache', 'muscle pain')).toMatchObject({
      condition: 'Malaria',
      icd10: 'B54',
      matchedSymptoms: ['fever', 'chills', 'headache', 'muscle pain'],
    });
    expect(top('fever', 'stiff neck', 'headache', 'photophobia')).toMatchObject({
      condition: 'Meningitis',
      urgency: 'emergency',
      redFlags: ['neck stiffness'],
    });
    expect(top('chronic cough', 'night sweats', 'weight loss', 'fever')).toMatchObject({ condition: 'Pulmonary tuberculosis' });
    expect(top('chest pain', 'sweating', 'pain radiating to the arm')).toMatchObject({
      condition: 'Acute myocardial infarction (heart attack)',
      urgency: 'emergency',
    });
    expect(top('rice-water stools', 'vomiting', 'leg cramps')).toMatchObject({ condition: 'Cholera' });
    expect(top('dysuria', 'frequent urination')).toMatchObject({ condition: 'Urinary tract infection' });
    expect(top('excessive thirst', 'polyuria', 'weight loss')).toMatchObject({
      condition: 'Diabetes mellitus (symptomatic hyperglycaemia)',
    });
  });

  it('scores between 0 and 1, names sources, and limits the list', () => {
    const list = differential(recognizeSymptoms(['fever', 'cough', 'headache', 'fatigue']).symptoms, 3);
    expect(list).toHaveLength(3);
    for (const item of list) {
      expect(item.matchScore).toBeGreaterThan(0);
      expect(item.matchScore).toBeLessThanOrEqual(1);
      expect(item.source).toMatch(/WHO fact sheet|NICE/);
    }
    expect(list.map((i) => i.matchScore)).toEqual([...list.map((i) => i.matchScore)].sort((a, b) => b - a));
    expect(differential([])).toEqual([]);
  });
});

describe('built-in lab interpretation', () => {
  it('parses laboratory reference ranges', () => {
    expect(parseRange('3.5-5.1')).toEqual([3.5, 5.1]);
    expect(parseRange('3.5 – 5.1')).toEqual([3.5, 5.1]);
    expect(parseRange('<200')).toEqual([null, 200]);
    expect(parseRange('≥ 40')).toEqual([40, null]);
    expect(parseRange('negative')).toBeNull();
  });

  it("uses the laboratory's range first, then the platform's, and the panic limits", () => {
    const { results } = interpretLabs(
      [
        { code: '2823-3', value: 5.3, unit: 'mmol/L', referenceRange: '3.5-5.5' },
        { code: '2823-3', value: 5.3, unit: 'mmol/L' },
        { name: 'Potassium', value: 7.1, unit: 'mmol/L' },
        { code: '2823-3', value: 20, unit: 'mg/dL' },
      ],
      {},
    );
    expect(results.map((r) => [r.status, r.referenceSource])).toEqual([
      ['normal', 'laboratory'],
      ['high', 'platform'],
      ['critical_high', 'platform'],
      ['unknown', null],
    ]);
    expect(results[2]).toMatchObject({ code: '2823-3', critical: true });
  });

  it('classifies anaemia by the WHO thresholds for the group and by red cell size', () => {
    const cbc = (hb: number, mcv: number) => [
      { code: '718-7', value: hb, unit: 'g/dL' },
      { code: '787-2', value: mcv, unit: 'fL' },
    ];
    const micro = interpretLabs(cbc(9.5, 68), { sex: 'female' }).patterns;
    expect(micro[0]).toMatchObject({
      key: 'anaemia',
      name: expect.stringMatching(/^Microcytic anaemia, moderate .*non-pregnant women.*12 g\/dL/),
    });
    expect(micro[0].suggestion).toMatch(/ferritin/);
    expect(interpretLabs(cbc(12.5, 110), { sex: 'male' }).patterns[0].name).toMatch(/^Macrocytic anaemia, mild/);
    expect(interpretLabs(cbc(7.5, 90), { sex: 'male' }).patterns[0].name).toMatch(/^Normocytic anaemia, severe/);
    // 12.5 g/dL is anaemia in a man, not in a woman; 10.5 in pregnancy is mild.
    expect(interpretLabs(cbc(12.5, 90), { sex: 'female' }).patterns).toEqual([]);
    expect(interpretLabs(cbc(10.5, 90), { sex: 'female', pregnant: true }).patterns[0].name).toMatch(/mild .*pregnant women/);
    // g/L is converted for the pattern.
    expect(interpretLabs([{ code: '718-7', value: 95, unit: 'g/L' }], { sex: 'female' }).patterns[0].name).toMatch(/^Anaemia, moderate/);
  });

  it('finds cytopenias, electrolyte disorders, hyperglycaemia and organ markers', () => {
    const { patterns } = interpretLabs(
      [
        { code: '718-7', value: 8, unit: 'g/dL' },
        { code: '6690-2', value: 2.1, unit: '10*3/uL' },
        { code: '777-3', value: 40, unit: '10*3/uL' },
        { code: '2951-2', value: 128, unit: 'mmol/L' },
        { code: '14749-6', value: 14.2, unit: 'mmol/L' },
        { code: '4548-4', value: 7.1, unit: '%' },
        { code: '1742-6', value: 240, unit: 'U/L' },
        { code: '2524-7', value: 3.1, unit: 'mmol/L' },
        { code: '2160-0', value: 2.4, unit: 'mg/dL' },
      ],
      { sex: 'male' },
    );
    expect(patterns.map((p) => p.key)).toEqual([
      'anaemia',
      'pancytopenia',
      'thrombocytopenia',
      'leukopenia',
      'hyponatraemia',
      'hyperglycaemia',
      'hba1c_diabetes',
      'raised_creatinine',
      'hepatocellular_injury',
      'hyperlactataemia',
    ]);
    for (const p of patterns) expect(p.source.length).toBeGreaterThan(20);
  });
});
