import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeFlagsOf, sandboxNodeFlags } from '@switchyard/tooling/node-flags';

const packageFile = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

/** The command the container's entrypoint runs the sandbox with. */
function entrypointCommand(): string {
  const command = /exec (node\b[^"\n]*)"\$@"/.exec(packageFile('docker-entrypoint.sh'))?.[1];
  if (command === undefined) throw new Error('docker-entrypoint.sh runs no node command');
  return command;
}

describe("the sandbox's Node flags (written once, in the root sandbox script)", () => {
  it('size the young generation, as docs/sandbox.md explains', () => {
    expect(sandboxNodeFlags()).toContain('--max-semi-space-size=64');
  });

  it("are the package's start script's and the container entrypoint's too", () => {
    const flags = sandboxNodeFlags();
    expect(nodeFlagsOf((JSON.parse(packageFile('package.json')) as { scripts: { start: string } }).scripts.start)).toEqual(flags);
    expect(nodeFlagsOf(entrypointCommand())).toEqual(flags);
  });

  it('are read from a command as the options between node and the file it runs', () => {
    expect(nodeFlagsOf('exec node --a=1 --b-c=2 tool.mjs --d=3')).toEqual(['--a=1', '--b-c=2']);
    expect(nodeFlagsOf('node main.js')).toEqual([]);
    expect(() => nodeFlagsOf('tsx main.ts')).toThrow(/does not run node/);
    expect(() => nodeFlagsOf('node --import tsx main.ts')).toThrow(/--name=value/);
    expect(() => nodeFlagsOf('node -r x main.js')).toThrow(/--name=value/);
  });
});
