// talisman ships no type declarations; these are the two functions the matcher uses.
declare module 'talisman/phonetics/double-metaphone' {
  export default function doubleMetaphone(word: string): [string, string];
}
declare module 'talisman/metrics/jaro-winkler' {
  export default function jaroWinkler(a: string, b: string): number;
}
