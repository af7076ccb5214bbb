import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { REPO_ROOT, type Snippet } from './markdown.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/**
 * What a reader's strict project would use: strict with unchecked index access, ESM on Node
 * (top-level await), Node's types. `@switchyard/*` resolves from this package's node_modules to the
 * workspace packages' `exports`, so the snippets are checked against the built `dist` types, as a
 * consumer of the published packages sees them.
 */
export const SNIPPET_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ['node'],
  verbatimModuleSyntax: true,
};

export interface SnippetError {
  /** `docs/webhooks.md:71`: where in the markdown the error is. */
  where: string;
  message: string;
}

/**
 * A snippet that starts with `// file: <path from the repository root>` is code a contributor
 * adds to the repository (docs/architecture.md, "How to add an endpoint"): it is checked in that
 * place, next to the code it imports by relative path. The path must not exist yet, so a snippet
 * never stands in for a real file.
 */
export const FILE_MARKER = /^\/\/ file: (\S+)/;

function placeOf(snippet: Snippet, index: number): string {
  const placed = FILE_MARKER.exec(snippet.code)?.[1];
  if (placed === undefined) return join(PACKAGE_DIR, 'snippets', `snippet-${index}.ts`);
  const path = join(REPO_ROOT, placed);
  if (existsSync(path)) throw new Error(`${snippet.file}:${snippet.line}: the snippet's file ${placed} already exists in the repository`);
  return path;
}

/**
 * Type-checks every snippet as its own ES module, in one program (one pass over the packages'
 * types). Files are virtual, placed in this package so that module resolution and the `"type":
 * "module"` of its package.json apply, or where their `// file:` line says.
 */
export function typecheckSnippets(snippets: readonly Snippet[]): SnippetError[] {
  const files = new Map<string, Snippet>();
  snippets.forEach((snippet, index) => files.set(placeOf(snippet, index), snippet));
  // `export {}` makes a snippet without imports a module too: its names stay its own.
  const sourceOf = (snippet: Snippet) => `${snippet.code}\nexport {};\n`;
  const host = ts.createCompilerHost(SNIPPET_OPTIONS, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  // A placed snippet may be the first file of a new folder, which module resolution must find.
  const { directoryExists } = host;
  host.directoryExists = (dir) => [...files.keys()].some((name) => name.startsWith(`${dir}/`)) || (directoryExists?.call(host, dir) ?? true);
  host.readFile = (name) => {
    const snippet = files.get(name);
    return snippet ? sourceOf(snippet) : readFile.call(host, name);
  };
  host.getSourceFile = (name, languageVersion, onError, shouldCreate) => {
    const snippet = files.get(name);
    return snippet ? ts.createSourceFile(name, sourceOf(snippet), languageVersion, true) : getSourceFile.call(host, name, languageVersion, onError, shouldCreate);
  };
  const program = ts.createProgram({ rootNames: [...files.keys()], options: SNIPPET_OPTIONS, host });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const snippet = diagnostic.file ? files.get(diagnostic.file.fileName) : undefined;
    if (!diagnostic.file || !snippet || diagnostic.start === undefined) {
      return { where: diagnostic.file?.fileName ?? '(compiler options)', message };
    }
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return { where: `${snippet.file}:${snippet.line + line}`, message };
  });
}
