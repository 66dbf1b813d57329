/**
 * Whether a prescription's medication text names a product: its active ingredient when the catalogue gives one
 * ("amoxicillin" in "Amoxicillin 500 mg capsule"), otherwise the first word of its name. Whole words, any case,
 * accents ignored. This catches an e-prescription offered for the wrong medicine; the pharmacist's check does the rest.
 */
export function medicationNames(medication: string, product: { name: string; activeIngredient?: string | null }): boolean {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const needle = fold(product.activeIngredient?.trim() || (product.name.trim().split(/[^\p{L}\p{N}-]+/u)[0] ?? ''));
  if (!needle) return false;
  const words = (s: string) =>
    ` ${fold(s)
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()} `;
  return words(medication).includes(words(needle));
}
