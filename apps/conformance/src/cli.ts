#!/usr/bin/env -S node --import tsx
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Profile } from './config.js';
import { renderPretty } from './report.js';
import { runConformance } from './run.js';

const USAGE = `switchyard-conformance --base-url URL [options]

  --base-url <url>       the server under test                        CONFORMANCE_BASE_URL
  --control-url <url>    where /sandbox answers, if not at base-url     CONFORMANCE_CONTROL_URL
  --public-key <key>     API keys (staging; the sandbox profile makes   CONFORMANCE_PUBLIC_KEY
  --secret-key <key>     its own tenants)                               CONFORMANCE_SECRET_KEY
  --account-id <uuid>    an account of those keys (staging)             CONFORMANCE_ACCOUNT_ID
  --profile <p>          sandbox (default) or staging                   CONFORMANCE_PROFILE
  --fixtures <file>      ids of states to use on staging                CONFORMANCE_FIXTURES
  --only <x>             a domain, a check or an operationId            CONFORMANCE_ONLY
  --reporter <r>         pretty (default), json or junit                CONFORMANCE_REPORTER
  --output <path>        where the json or junit report goes            CONFORMANCE_OUTPUT
  --seed <n>             seed of the generated invalid requests         CONFORMANCE_SEED
`;

/** The CLI, as a function: returns the exit code (0 only when nothing failed). */
export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'base-url': { type: 'string' },
      'control-url': { type: 'string' },
      'public-key': { type: 'string' },
      'secret-key': { type: 'string' },
      'account-id': { type: 'string' },
      profile: { type: 'string' },
      fixtures: { type: 'string' },
      only: { type: 'string' },
      reporter: { type: 'string' },
      output: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const env = process.env;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const baseUrl = values['base-url'] ?? env.CONFORMANCE_BASE_URL;
  if (!baseUrl) {
    process.stderr.write(`--base-url is required\n\n${USAGE}`);
    return 2;
  }
  const profile = (values.profile ?? env.CONFORMANCE_PROFILE ?? 'sandbox') as Profile;
  const reporter = values.reporter ?? env.CONFORMANCE_REPORTER ?? 'pretty';
  const output = values.output ?? env.CONFORMANCE_OUTPUT;
  if (!['pretty', 'json', 'junit'].includes(reporter)) {
    process.stderr.write(`--reporter must be pretty, json or junit\n`);
    return 2;
  }
  if (reporter === 'junit' && !output) {
    process.stderr.write('--reporter junit needs --output <file>\n');
    return 2;
  }
  const report = await runConformance({
    baseUrl,
    controlUrl: values['control-url'] ?? env.CONFORMANCE_CONTROL_URL,
    publicKey: values['public-key'] ?? env.CONFORMANCE_PUBLIC_KEY,
    secretKey: values['secret-key'] ?? env.CONFORMANCE_SECRET_KEY,
    accountId: values['account-id'] ?? env.CONFORMANCE_ACCOUNT_ID,
    profile,
    fixturesFile: values.fixtures ?? env.CONFORMANCE_FIXTURES,
    only: values.only ?? env.CONFORMANCE_ONLY,
    seed: values.seed ?? env.CONFORMANCE_SEED ? Number(values.seed ?? env.CONFORMANCE_SEED) : undefined,
    junitFile: reporter === 'junit' ? output : undefined,
  });
  if (reporter === 'json') {
    const json = `${JSON.stringify(report, null, 2)}\n`;
    if (output) writeFileSync(output, json);
    else process.stdout.write(json);
  }
  if (reporter !== 'json' || output) process.stdout.write(renderPretty(report));
  return report.totals.fail === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exit(2);
    },
  );
}
