import {
  DRUG_CLASSES,
  INGREDIENTS,
  SHIPPED_RULES,
  allergenOf,
  canonicalSide,
  findAllergyConflicts,
  findDuplicates,
  findInteractions,
  pairKey,
  resolveMedication,
  type InteractionRule,
} from './drug-knowledge';

/** The shipped rules as the database holds them, by pair. */
const RULES = new Map<string, InteractionRule>(
  SHIPPED_RULES.map((r, i) => [
    pairKey(r.a, r.b),
    {
      id: String(i),
      sideA: r.a,
      sideB: r.b,
      severity: r.severity,
      description: r.description,
      recommendation: r.recommendation,
      source: r.source,
    },
  ]),
);
const meds = (...names: string[]) => names.map((n, i) => resolveMedication(i, n, null));

describe('drug vocabulary', () => {
  it('resolves ingredients, brands, synonyms and products in any case, with strength and form', () => {
    expect(resolveMedication(0, 'WARFARIN 5 mg tablets', null).ingredients.map((i) => i.key)).toEqual(['warfarin']);
    expect(resolveMedication(0, 'coumadin', null).ingredients.map((i) => i.key)).toEqual(['warfarin']);
    expect(resolveMedication(0, 'Paracetamol 500mg', null).ingredients.map((i) => i.key)).toEqual(['acetaminophen']);
    expect(resolveMedication(0, 'Augmentin 625 mg', null).ingredients.map((i) => i.key)).toEqual(['amoxicillin', 'clavulanate']);
    expect(resolveMedication(0, 'St. John’s Wort', null).ingredients.map((i) => i.key)).toEqual(['st_johns_wort']);
    expect(resolveMedication(0, 'Amoxicillin and clavulanic acid', null).ingredients.map((i) => i.key)).toEqual([
      'amoxicillin',
      'clavulanate',
    ]);
  });

  it('resolves RxNorm ingredient codes before names, and reports what it cannot resolve', () => {
    expect(resolveMedication(0, 'something', '11289')).toMatchObject({ matchedBy: 'rxcui', ingredients: [{ key: 'warfarin' }] });
    expect(resolveMedication(0, 'Aspirin', '999999999')).toMatchObject({ matchedBy: 'name', ingredients: [{ key: 'aspirin' }] });
    expect(resolveMedication(0, 'Unobtainium', null)).toMatchObject({ matchedBy: null, ingredients: [] });
  });

  it('has consistent data: unique keys and codes, every class described, rules naming known sides', () => {
    expect(new Set(INGREDIENTS.map((i) => i.key)).size).toBe(INGREDIENTS.length);
    const codes = INGREDIENTS.flatMap((i) => i.rxcui);
    expect(new Set(codes).size).toBe(codes.length);
    for (const i of INGREDIENTS) for (const c of i.classes) expect(DRUG_CLASSES).toHaveProperty(c);
    for (const r of SHIPPED_RULES) for (const side of [r.a, r.b]) expect(canonicalSide(side)).toEqual({ key: side, known: true });
    for (const r of SHIPPED_RULES) expect(r.source.length).toBeGreaterThan(20);
  });

  it('canonicalises administrator input: brands, codes, classes; unknown drugs by name', () => {
    expect(canonicalSide('Coumadin')).toEqual({ key: 'warfarin', known: true });
    expect(canonicalSide('1191')).toEqual({ key: 'aspirin', known: true });
    expect(canonicalSide('class:NSAIDs')).toEqual({ key: 'class:nsaids', known: true });
    expect(canonicalSide('class:nonsense')).toBeNull();
    expect(canonicalSide('Augmentin')).toBeNull();
    expect(canonicalSide('Newdrugamab')).toEqual({ key: 'newdrugamab', known: false });
  });
});

describe('drug interactions', () => {
  it('warfarin with aspirin: a major bleeding interaction with a recommendation', () => {
    const [found, ...rest] = findInteractions(meds('Warfarin', 'Aspirin'), RULES);
    expect(rest).toEqual([]);
    expect(found.severity).toBe('major');
    expect(found.rule.recommendation).toMatch(/bleeding/);
    expect(found.basis).toBe('classes');
  });

  it('expands class rules over the drugs of each class', () => {
    const sev = (a: string, b: string) => findInteractions(meds(a, b), RULES)[0]?.severity ?? null;
    expect(sev('Eliquis', 'Ibuprofen')).toBe('major'); // anticoagulant + NSAID
    expect(sev('Sertraline', 'Phenelzine')).toBe('contraindicated'); // ONC: serotonergic + MAOI
    expect(sev('Simvastatin', 'Clarithromycin')).toBe('contraindicated'); // ONC: statin + strong CYP3A4 inhibitor
    expect(sev('Sildenafil', 'Isosorbide mononitrate')).toBe('contraindicated');
    expect(sev('Ondansetron', 'Haloperidol')).toBe('major'); // QT prolongers together
    expect(sev('Fluoxetine', 'Tramadol')).toBe('moderate'); // serotonergic combination
    expect(sev('Omeprazole', 'Reyataz')).toBe('contraindicated');
    expect(sev('Amoxicillin', 'Paracetamol')).toBeNull();
  });

  it('prefers a rule naming both ingredients over class rules for the same pair', () => {
    const custom = new Map(RULES);
    custom.set(pairKey('aspirin', 'warfarin'), {
      id: 'x',
      sideA: 'aspirin',
      sideB: 'warfarin',
      severity: 'moderate',
      description: 'd',
      recommendation: 'r',
      source: 's',
    });
    const [found] = findInteractions(meds('Aspirin', 'Warfarin'), custom);
    expect(found).toMatchObject({ severity: 'moderate', basis: 'ingredients' });
  });

  it('checks each ingredient of a product and reports duplicates instead of self-interactions', () => {
    const found = findInteractions(meds('Methotrexate 2.5 mg', 'Co-trimoxazole 960'), RULES);
    expect(found.map((f) => [f.ingredients[1].key, f.severity])).toEqual([['trimethoprim', 'major']]);
    expect(findInteractions(meds('Warfarin', 'Coumadin'), RULES)).toEqual([]);
    expect(findDuplicates(meds('Warfarin', 'Coumadin')).map((d) => d.ingredient.key)).toEqual(['warfarin']);
  });
});

describe('drug allergies', () => {
  const allergy = (substance: string, type = 'allergy') => ({ id: substance, substance, type, reaction: 'hives' });

  it('reads what a recorded allergy covers', () => {
    expect(allergenOf('Penicillin').classes).toEqual(['penicillins']);
    expect(allergenOf('amoxicillin').classes).toEqual(['penicillins']);
    expect(allergenOf('Sulfa drugs').classes).toEqual(['sulfonamide_antibiotics']);
    expect(allergenOf('peanuts')).toEqual({ ingredients: [], classes: [] });
  });

  it('amoxicillin for a penicillin-allergic patient is contraindicated', () => {
    const [c] = findAllergyConflicts(meds('Amoxicillin 500 mg'), [allergy('Penicillin')]);
    expect(c).toMatchObject({ severity: 'contraindicated', basis: 'same_class', allergyClass: 'penicillins' });
    expect(c.recommendation).toMatch(/NICE CG183/);
  });

  it('cross-reactive classes take the guidance severity; intolerances are not contraindications', () => {
    expect(findAllergyConflicts(meds('Ceftriaxone'), [allergy('penicillin')])[0]).toMatchObject({
      severity: 'major',
      basis: 'cross_reactive',
    });
    expect(findAllergyConflicts(meds('Meropenem'), [allergy('penicillin')])[0]).toMatchObject({ severity: 'moderate' });
    expect(findAllergyConflicts(meds('Bactrim'), [allergy('sulfa')])[0]).toMatchObject({ severity: 'contraindicated' });
    expect(findAllergyConflicts(meds('Erythromycin'), [allergy('erythromycin', 'intolerance')])[0]).toMatchObject({
      severity: 'major',
      basis: 'same_drug',
    });
    expect(findAllergyConflicts(meds('Azithromycin', 'Paracetamol'), [allergy('penicillin'), allergy('peanuts')])).toEqual([]);
  });
});
