import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A skills folder with the spec's calculator, and whatever skills a test adds as `{ name: SKILL.md text }`. */
export function makeSkillsFolder(extra: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'spine-skills-'));
  const skills: Record<string, string> = {
    calculator:
      '---\nname: calculator\ndescription: Basic arithmetic with Python\n---\n# Calculator\n\nWrite a Python script that prints the result, e.g. `print(25 * 4)`. `table.txt` in the skill folder has constants.\n',
    ...extra,
  };
  for (const [name, text] of Object.entries(skills)) {
    mkdirSync(join(root, name));
    writeFileSync(join(root, name, 'SKILL.md'), text);
  }
  writeFileSync(join(root, 'calculator', 'table.txt'), 'pi=3.14159\n');
  return root;
}
