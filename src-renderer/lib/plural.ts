/** "1 file", "2 files", "1,000 files": the count with the word agreeing (English rules via Intl). */
const rules = new Intl.PluralRules('en');

export function plural(n: number, one: string, other = `${one}s`): string {
  return `${n.toLocaleString('en')} ${rules.select(n) === 'one' ? one : other}`;
}
