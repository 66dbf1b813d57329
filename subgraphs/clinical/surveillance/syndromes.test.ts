import { SYNDROMES, syndromeOfIcd10, syndromesOfComplaint } from './syndromes';

describe('syndromes', () => {
  it.each([
    ['Rash and high fever for 2 days', ['fever_rash']],
    ['FEVER, maculopapular rash, conjunctivitis', ['fever_rash']],
    ['Suspected measles', ['fever_rash']],
    ['Fever and cough since Monday', ['ili']],
    ['Fever, cough and difficulty breathing', ['ili', 'sari']],
    ['Profuse watery diarrhoea, rice-water stools', ['acute_watery_diarrhoea']],
    ['Diarrhea x3 days', ['acute_watery_diarrhoea']],
    ['Bloody diarrhoea and cramps', ['bloody_diarrhoea']],
    ['Diarrhoea with blood', ['bloody_diarrhoea']],
    ['Sudden flaccid weakness of the left leg', ['acute_flaccid_paralysis']],
    ['High fever, bleeding gums', ['acute_haemorrhagic_fever']],
    ['Fever and stiff neck', ['meningitis']],
    ['Yellow eyes and dark urine', ['acute_jaundice']],
    ['Headache', []],
    ['Rashly decided to come in', []],
    ['Feverish', []],
  ])('reads "%s" as %j', (complaint, expected) => {
    expect(syndromesOfComplaint(complaint)).toEqual(expected);
  });

  it.each([
    ['B05.9', 'fever_rash'],
    ['A00', 'acute_watery_diarrhoea'],
    ['A98.4', 'acute_haemorrhagic_fever'],
    ['A97.2', 'acute_haemorrhagic_fever'],
    ['A97.0', null],
    ['A80.1', 'acute_flaccid_paralysis'],
    ['j10.1', 'ili'],
    ['J45', null],
    ['not a code', null],
  ])('puts ICD-10 %s in %s', (code, expected) => {
    expect(syndromeOfIcd10(code)).toBe(expected);
  });

  it('has unique codes and at least one way in for each', () => {
    expect(new Set(SYNDROMES.map((s) => s.code)).size).toBe(SYNDROMES.length);
    for (const s of SYNDROMES) expect(s.icd10.length + s.complaints.length).toBeGreaterThan(0);
  });
});
