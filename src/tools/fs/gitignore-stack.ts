import type ignoreType from 'ignore';
import type { Ignore } from 'ignore';
import { lazyModule } from '../../core/lazy-module.js';

const ignore = lazyModule<typeof ignoreType>('ignore');

/**
 * Rules read from one .gitignore. Real ones have tens to a few hundred; every rule is tested against every path
 * walked, so a hostile file of 20,000 rules would stall `fs.list` and `fs.search`. Rules past this are dropped
 * (files they would hide are then listed: ignore files are a convenience, hidden paths are enforced elsewhere).
 */
export const maxRulesPerFile = 1000;

interface Layer {
  /** The folder holding the .gitignore, relative to the mount root ('' for the root). */
  base: string;
  rules: Ignore;
}

/**
 * The .gitignore files from the mount root down to one folder. Deeper files come later and win, as in git;
 * an ignored folder is never entered, so nothing inside it can be re-included.
 */
export class GitignoreStack {
  private constructor(private readonly layers: readonly Layer[]) {}

  static empty(): GitignoreStack {
    return new GitignoreStack([]);
  }

  /** A stack with one more folder's .gitignore (unchanged when it has none). */
  withFile(base: string, content: string | undefined): GitignoreStack {
    if (content === undefined || content.trim() === '') return this;
    return new GitignoreStack([...this.layers, { base, rules: ignore()().add(firstRules(content)) }]);
  }

  /** `path` relative to the mount root, no leading slash. */
  isIgnored(path: string, isFolder: boolean): boolean {
    let ignored = false;
    for (const layer of this.layers) {
      const relative = layer.base === '' ? path : path.slice(layer.base.length + 1);
      const result = layer.rules.test(isFolder ? `${relative}/` : relative);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }
}

function firstRules(content: string): string[] {
  const rules: string[] = [];
  for (const line of content.split('\n')) {
    const rule = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (rule.trim() === '' || rule.startsWith('#')) continue;
    rules.push(rule);
    if (rules.length === maxRulesPerFile) break;
  }
  return rules;
}
