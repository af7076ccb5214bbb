/** The command: the bin launcher (`bin/switchyard-conformance.js`) and `pnpm conformance` start here. */
import { main } from './cli.js';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(2);
  },
);
