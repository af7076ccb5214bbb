import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isTypeScript, REPO_ROOT, snippetsOf, type Snippet } from './markdown.js';
import { FILE_MARKER } from './typecheck.js';

/**
 * docs/architecture.md, "How to add an endpoint": every snippet is a step, a new file
 * (`// file: <path>`) or lines inserted into a file that exists
 * (`// add to: <path>, before: <text>`, `at the top` or `at the end`). guide.test.ts applies them
 * all to a scratch copy of the contract and the sandbox and type-checks the copy, so the guide
 * stays a recipe that builds.
 */
export const GUIDE = 'docs/architecture.md';
export const ADD_MARKER = /^\/\/ add to: (\S+), (?:before: (.+)|(at the top)|(at the end))$/;

/** The packages the guide touches, copied without their node_modules (linked) and build output. */
export const PACKAGES = ['packages/contract', 'apps/sandbox-server'];

export const isGuideStep = (snippet: Snippet) => FILE_MARKER.test(snippet.code) || ADD_MARKER.test(snippet.code.split('\n')[0] ?? '');

/** The guide's steps, in the order a reader takes them. */
export const guideSteps = (): Snippet[] => snippetsOf(join(REPO_ROOT, GUIDE)).filter(isTypeScript).filter(isGuideStep);

/** Applies one step under `root` (a copy of the repository's packages); the file it wrote or changed. */
export function applyStep(root: string, step: Snippet): string {
  const [first = '', ...rest] = step.code.split('\n');
  const body = rest.join('\n');
  const file = FILE_MARKER.exec(first);
  if (file) {
    const path = join(root, file[1] as string);
    if (existsSync(path)) throw new Error(`${step.file}:${step.line}: the step's new file ${file[1]} already exists`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${body}\n`);
    return path;
  }
  const add = ADD_MARKER.exec(first);
  if (!add) throw new Error(`${step.file}:${step.line}: not a guide step`);
  const [, target, before, top] = add;
  const path = join(root, target as string);
  const lines = readFileSync(path, 'utf8').split('\n');
  let at = lines.length;
  if (top) at = 0;
  else if (before !== undefined) {
    at = lines.findIndex((line) => line.includes(before));
    if (at < 0) throw new Error(`${step.file}:${step.line}: no line of ${target} holds "${before}"`);
  }
  lines.splice(at, 0, ...rest);
  writeFileSync(path, lines.join('\n'));
  return path;
}
