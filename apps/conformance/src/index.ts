/** The runner as a library: run the suite against a base URL and get the report the CLI prints. */
export { runConformance, type RunOptions } from './run.js';
export { renderPretty, verdictOf, type ConformanceReport, type EndpointRow, type Exclusion, type Outcome, type TestOutcome } from './report.js';
export { type Fixtures, type Profile } from './config.js';
