import { lazyModule } from '../../core/lazy-module.js';
import { recallFrontmatter, rememberFrontmatter } from '../../tools/fs/frontmatter-cache.js';
import { fsError } from '../../tools/fs/fs-failure.js';

const yaml = lazyModule<typeof import('yaml')>('yaml');

// The same opening the fs tools' frontmatter update reads: `---` on the first line, closed by a second `---`.
const frontmatterPattern = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/** A markdown document whose YAML frontmatter is the run's state. */
export interface StateDocument {
  /** Shared and frozen when it came from the cache: copy before changing it. */
  frontmatter: Readonly<Record<string, unknown>>;
  body: string;
}

/**
 * Splits a state document into its frontmatter (a YAML mapping) and body. Anything else — no opening `---`,
 * no closing one, YAML that does not parse, a frontmatter that is not a mapping — is `E_INVALID_FRONTMATTER`.
 */
export function parseStateDocument(text: string, display: string): StateDocument {
  const found = frontmatterPattern.exec(text);
  if (found === null) {
    throw fsError('E_INVALID_FRONTMATTER', `${display} does not start with a YAML frontmatter block (---)`, {
      path: display,
    });
  }
  const body = text.slice(found[0].length);
  const known = recallFrontmatter(text);
  if (known !== undefined) return { frontmatter: known, body };
  const document = yaml().parseDocument(found[1] ?? '');
  if (document.errors.length > 0) {
    throw fsError(
      'E_INVALID_FRONTMATTER',
      `the frontmatter of ${display} does not parse: ${document.errors[0]!.message}`,
      { path: display, errors: document.errors.map((error) => error.message) },
    );
  }
  const value: unknown = document.toJS() ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw fsError('E_INVALID_FRONTMATTER', `the frontmatter of ${display} is not a mapping`, {
      path: display,
    });
  }
  rememberFrontmatter(text, value as Record<string, unknown>);
  return { frontmatter: value as Record<string, unknown>, body };
}

/** The document again, frontmatter first: what a run writes when it creates its state. */
export function renderStateDocument(document: StateDocument): string {
  const text = yaml().stringify(document.frontmatter, { lineWidth: 0 });
  return `---\n${text}---\n${document.body}`;
}
