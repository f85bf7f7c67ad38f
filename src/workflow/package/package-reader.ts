import { readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, posix, sep } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { compileJsonSchema, describeSchemaFault } from '../../core/json-schema.js';
import { lazyModule } from '../../core/lazy-module.js';
import type { PackageProblem } from './package-types.js';

const yaml = lazyModule<typeof import('yaml')>('yaml');
const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Reads a package folder's files for validation, turning every fault into a problem instead of an exception:
 * the validator reports all of them at once. Paths are package-relative, POSIX.
 */
export class PackageReader {
  readonly problems: PackageProblem[] = [];
  readonly #root: string;
  #realRoot: string | undefined;

  constructor(root: string) {
    this.#root = root;
  }

  problem(
    code: string,
    file: string,
    message: string,
    where: { pointer?: string; line?: number } = {},
  ): void {
    this.problems.push({ code, file, message, severity: 'error', ...where });
  }

  warning(
    code: string,
    file: string,
    message: string,
    where: { pointer?: string; line?: number } = {},
  ): void {
    this.problems.push({ code, file, message, severity: 'warning', ...where });
  }

  /** A package-relative path that stays inside the package, normalized; undefined (and a problem) if not. */
  inside(path: string, from: string, pointer?: string): string | undefined {
    const where = pointer === undefined ? {} : { pointer };
    if (path.includes('\\') || path.includes('\0') || isAbsolute(path) || /^[A-Za-z]:/.test(path)) {
      this.problem(
        'PKG_PATH_OUTSIDE_PACKAGE',
        from,
        `"${path}" is not a relative POSIX path inside the package`,
        where,
      );
      return undefined;
    }
    const normalized = posix.normalize(path);
    if (normalized === '..' || normalized.startsWith('../')) {
      this.problem('PKG_PATH_OUTSIDE_PACKAGE', from, `"${path}" leads outside the package`, where);
      return undefined;
    }
    return normalized;
  }

  /** The text of a package file, or undefined with a problem (missing, or a link out of the package). */
  async text(path: string, from: string, pointer?: string): Promise<string | undefined> {
    const where = pointer === undefined ? {} : { pointer };
    const absolute = join(this.#root, path);
    try {
      this.#realRoot ??= await realpath(this.#root);
      const real = await realpath(absolute);
      if (real !== this.#realRoot && !real.startsWith(this.#realRoot + sep)) {
        this.problem(
          'PKG_PATH_OUTSIDE_PACKAGE',
          from,
          `${path} is a link to a file outside the package`,
          where,
        );
        return undefined;
      }
      return await readFile(real, 'utf8');
    } catch {
      this.problem('PKG_MISSING_FILE', from, `${path} does not exist in the package`, where);
      return undefined;
    }
  }

  /** A JSON file checked against its schema; undefined when it is missing or does not parse. */
  async json(path: string, schema: object, from = path): Promise<Record<string, unknown> | undefined> {
    const text = await this.text(path, from);
    if (text === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.problem('PKG_INVALID_JSON', path, `not valid JSON: ${(error as Error).message}`, {
        line: lineOfJsonError(text, error as Error),
      });
      return undefined;
    }
    this.check(value, schema, path);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  }

  /** Schema faults of a value, each a problem with its JSON pointer. */
  check(value: unknown, schema: object, file: string, ignore?: (pointer: string) => boolean): void {
    let validate = compiled.get(schema);
    if (validate === undefined) {
      validate = compileJsonSchema(schema as Record<string, unknown>, { formats: true });
      compiled.set(schema, validate);
    }
    if (validate(value)) return;
    for (const fault of (validate.errors ?? []).map(describeSchemaFault)) {
      if (ignore?.(fault.path) === true) continue;
      this.problem('PKG_SCHEMA_VIOLATION', file, `${fault.at || '/'}: ${fault.message}`, {
        pointer: fault.path,
      });
    }
  }

  /**
   * The YAML frontmatter of a markdown file: it must open the file (`---`, a BOM allowed), be closed by a second
   * `---`, parse, and be a mapping. Each way it can fail is its own message, with the line.
   */
  frontmatter(
    text: string,
    file: string,
  ): { frontmatter: Record<string, unknown>; body: string } | undefined {
    const opened = /^\uFEFF?---[ \t]*\r?\n/.exec(text);
    if (opened === null) {
      const later = /^---[ \t]*$/m.exec(text);
      const line = later === null ? 1 : text.slice(0, later.index).split('\n').length;
      this.problem(
        'PKG_INVALID_FRONTMATTER',
        file,
        later === null
          ? 'no YAML frontmatter (the file must start with ---)'
          : 'the frontmatter is not at the beginning of the file',
        { line },
      );
      return undefined;
    }
    const rest = text.slice(opened[0].length);
    const closing = /^---[ \t]*(?:\r?\n|$)/m.exec(rest);
    if (closing === null) {
      this.problem('PKG_INVALID_FRONTMATTER', file, 'the frontmatter is not closed (no second ---)', {
        line: 1,
      });
      return undefined;
    }
    const document = yaml().parseDocument(rest.slice(0, closing.index));
    const error = document.errors[0];
    if (error !== undefined) {
      this.problem(
        'PKG_INVALID_FRONTMATTER',
        file,
        `the frontmatter does not parse: ${error.message.split('\n')[0]}`,
        {
          line: (error.linePos?.[0].line ?? 0) + 1,
        },
      );
      return undefined;
    }
    const value: unknown = document.toJS() ?? {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.problem('PKG_INVALID_FRONTMATTER', file, 'the frontmatter is not a mapping', { line: 2 });
      return undefined;
    }
    return {
      frontmatter: value as Record<string, unknown>,
      body: rest.slice(closing.index + closing[0].length),
    };
  }
}

/**
 * The line of a JSON.parse error. Newer V8s name the position; Node 20's names none but quotes the text around
 * it (`Unexpected token ',', ..."ts": [,]"... is not valid JSON`: ten characters either side, dots where
 * cut), which is found in the text again.
 */
function lineOfJsonError(text: string, error: Error): number {
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const position = /position (\d+)/.exec(error.message);
  if (position !== null) return lineOf(Number(position[1]));
  if (/end of JSON input/.test(error.message)) return text.trimEnd().split('\n').length;
  const quoted = /, (\.\.\.)?"([\s\S]*?)"(?:\.\.\.)? is not valid JSON/.exec(error.message);
  const index = quoted === null ? -1 : text.indexOf(quoted[2]!);
  if (index < 0) return 1;
  return lineOf(index + (quoted![1] === undefined ? 0 : 10));
}
