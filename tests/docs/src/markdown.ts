import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The marker that exempts a snippet from the type check, written on the line just above its
 * fence with the reason: `<!-- docs-test: skip (why it cannot compile) -->`.
 */
export const SKIP_MARKER = /^<!--\s*docs-test:\s*skip\b\s*(.*?)\s*-->$/;

export interface Snippet {
  /** Path from the repository root, for messages. */
  file: string;
  /** 1-based line in the file of the snippet's first code line. */
  line: number;
  lang: string;
  code: string;
  /** The closest heading above the snippet, without the `#`s. */
  heading: string;
  /** Set when the snippet opts out of the type check: the reason given (may be empty, which the test refuses). */
  skip?: string;
}

/** Every fenced block of a markdown text, with where it starts and the heading it sits under. */
export function extractSnippets(markdown: string, file: string): Snippet[] {
  const lines = markdown.split('\n');
  const snippets: Snippet[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i += 1) {
    const text = lines[i] as string;
    const fence = /^```(\S*)\s*$/.exec(text);
    if (!fence) {
      const title = /^#{1,6}\s+(.*)$/.exec(text);
      if (title) heading = (title[1] as string).trim();
      continue;
    }
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`${file}:${i + 1}: a code fence that is never closed`);
    const above = (lines[i - 1] ?? '').trim();
    const skip = SKIP_MARKER.exec(above);
    snippets.push({
      file,
      line: i + 2,
      lang: fence[1] as string,
      code: lines.slice(i + 1, end).join('\n'),
      heading,
      ...(skip ? { skip: skip[1] as string } : {}),
    });
    i = end;
  }
  return snippets;
}

/** The documentation a reader sees: the root README, every package's README and docs/*.md. */
export function documentationFiles(root = REPO_ROOT): string[] {
  const markdownIn = (dir: string) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((name) => name.endsWith('.md'))
          .sort()
          .map((name) => join(dir, name))
      : [];
  const packages = ['packages', 'apps'].flatMap((folder) =>
    readdirSync(join(root, folder))
      .sort()
      .map((name) => join(root, folder, name, 'README.md'))
      .filter(existsSync),
  );
  return [join(root, 'README.md'), ...packages, ...markdownIn(join(root, 'docs'))];
}

export function snippetsOf(path: string, root = REPO_ROOT): Snippet[] {
  return extractSnippets(readFileSync(path, 'utf8'), relative(root, path));
}

export const isTypeScript = (snippet: Snippet) => snippet.lang === 'ts' || snippet.lang === 'typescript';

/** The one snippet of `lang` under `heading` in a file; fails loudly so a renamed section is noticed. */
export function snippetUnder(path: string, heading: string, lang: (s: Snippet) => boolean): Snippet {
  const found = snippetsOf(path).filter((s) => s.heading === heading && lang(s));
  if (found.length !== 1) throw new Error(`${relative(REPO_ROOT, path)}: expected one snippet under "${heading}", found ${found.length}`);
  return found[0] as Snippet;
}
