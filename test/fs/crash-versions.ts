/** Two large, different contents: a mix of them (a torn write) is never equal to either. */
export function crashVersions(): [string, string] {
  const line = (tag: string, index: number) => `${tag} line ${index} ${'x'.repeat(60)}\n`;
  const make = (tag: string, lines: number) =>
    Array.from({ length: lines }, (_, index) => line(tag, index)).join('');
  return [make('old', 3000), make('new', 2200)];
}
