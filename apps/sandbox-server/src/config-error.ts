/** The hint of a configuration error that names no better one. */
export const HELP_HINT = 'switchyard-sandbox --help lists the options';

/** A setting the sandbox cannot start with: the CLI prints `message` and `hint` on one line and exits 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    message: string,
    readonly hint: string = HELP_HINT,
  ) {
    super(message);
  }
}
