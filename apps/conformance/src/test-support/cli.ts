import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConformanceReport } from '../report.js';

const CLI = fileURLToPath(new URL('../cli.ts', import.meta.url));

/** Runs the CLI as a user would, in its own process, with a JSON report. */
export function runCli(args: string[]): Promise<{ code: number; report: ConformanceReport; stdout: string }> {
  const out = join(mkdtempSync(join(tmpdir(), 'conformance-')), 'report.json');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args, '--reporter', 'json', '--output', out], { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number }).code ?? 1) : 0;
      try {
        resolve({ code: typeof code === 'number' ? code : 1, report: JSON.parse(readFileSync(out, 'utf8')) as ConformanceReport, stdout });
      } catch (e) {
        reject(new Error(`the CLI wrote no report (exit ${String(code)}): ${stderr}\n${String(e)}`));
      }
    });
  });
}
