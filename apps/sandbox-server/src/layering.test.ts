import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('.', import.meta.url));

/** The source files of a folder of src/ (tests left out), with their text. */
function sources(folder: string): { file: string; text: string }[] {
  return readdirSync(`${src}${folder}`, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => ({ file: `${folder}/${file}`, text: readFileSync(`${src}${folder}/${file}`, 'utf8') }));
}

/** The code of a file without its comments, which may well name what the code must not use. */
const codeOf = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
const importsOf = (text: string) => [...text.matchAll(/^import[^;]*?from '([^']+)'/gms)].map((m) => m[1] as string);

describe('layering', () => {
  it('domain modules import nothing that knows HTTP or storage', () => {
    const offending = sources('domain').flatMap(({ file, text }) =>
      importsOf(text)
        .filter((spec) => /express|^node:http|\/http\/|^\.\.\/errors\.js$|\/store\//.test(spec))
        .map((spec) => `${file} imports ${spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('domain, app and webhook code throw DomainErrors by code and never name an HTTP status', () => {
    const offending = ['domain', 'app', 'webhooks'].flatMap((folder) =>
      sources(folder).flatMap(({ file, text }) => (/\b(ApiProblem|STATUS_OF|problemOf)\b/.test(codeOf(text)) ? [file] : [])),
    );
    expect(offending).toEqual([]);
  });
});
