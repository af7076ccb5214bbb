import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const SOURCE = fileURLToPath(new URL('./browser/inspector.ts', import.meta.url));
const TARGET = fileURLToPath(new URL('./script.ts', import.meta.url));

/**
 * The inspector's browser code (browser/inspector.ts and the formatting it imports), bundled into
 * one plain ES module for the browsers the page supports. Type-only imports leave nothing.
 */
export async function bundleInspectorScript(): Promise<string> {
  const result = await build({ entryPoints: [SOURCE], bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', charset: 'utf8', legalComments: 'none', logLevel: 'silent' });
  return (result.outputFiles[0] as { text: string }).text;
}

/** A string for a template literal: backslashes, backticks and `${` escaped. */
const templateText = (text: string) => text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');

/** script.ts's text: the bundle as a string constant, so every build of the sandbox (tsc, the esbuild bundle, tsx) serves it as it is. */
export const scriptModule = (bundle: string) => `// Generated from browser/inspector.ts by \`pnpm --filter @switchyard/sandbox-server inspector-script\`; do not edit.
/** The inspector's browser script, served as \`/inspector/inspector.js\` (script-bundle.ts). */
export const INSPECTOR_SCRIPT = \`${templateText(bundle)}\`;
`;

/** Writes script.ts from the browser code. */
export async function writeInspectorScript(): Promise<string> {
  writeFileSync(TARGET, scriptModule(await bundleInspectorScript()));
  return TARGET;
}
