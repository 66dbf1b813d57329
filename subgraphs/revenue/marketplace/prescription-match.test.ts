import { medicationNames } from './prescription-match';

describe('a prescription names a product', () => {
  it('by its active ingredient, as a whole word in any case', () => {
    expect(medicationNames('Amoxicillin 500 mg capsule', { name: 'Amoxil 500', activeIngredient: 'amoxicillin' })).toBe(true);
    expect(medicationNames('AMOXICILLIN/clavulanate 625 mg', { name: 'Augmentin', activeIngredient: 'Amoxicillin' })).toBe(true);
    expect(medicationNames('Paracetamol 1 g', { name: 'Amoxil 500', activeIngredient: 'amoxicillin' })).toBe(false);
  });

  it('by the first word of its name when no ingredient is given', () => {
    expect(medicationNames('Metformin 500 mg tablet', { name: 'Metformin 500mg tablets, 28' })).toBe(true);
    expect(medicationNames('Metformin 500 mg tablet', { name: 'Met 500' })).toBe(false);
  });

  it('by ingredients of more than one word, ignoring accents', () => {
    expect(medicationNames('Acide acétylsalicylique 100 mg', { name: 'Aspirine', activeIngredient: 'acide acetylsalicylique' })).toBe(true);
    expect(medicationNames('insulin glargine 100 units/ml', { name: 'Lantus', activeIngredient: 'insulin glargine' })).toBe(true);
    expect(medicationNames('insulin aspart', { name: 'Lantus', activeIngredient: 'insulin glargine' })).toBe(false);
  });
});
