import type { DestinationStream } from 'pino';
import type { LogFormat } from './config.js';
import { formatDuration } from './runtime/duration-text.js';


/** Pretty on a terminal, JSON otherwise (a pipe, a file, a container's log driver), unless the format is given. */
export const logFormatFor = (given: LogFormat | undefined, stdoutIsTty: boolean): LogFormat => given ?? (stdoutIsTty ? 'pretty' : 'json');

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const ANSI = { dim: 2, red: 31, green: 32, yellow: 33, cyan: 36, magenta: 35 } as const;
type Colour = keyof typeof ANSI;

const levelColour = (level: number): Colour => (level >= 50 ? 'red' : level >= 40 ? 'yellow' : level >= 30 ? 'green' : 'dim');
const statusColour = (status: number): Colour => (status >= 500 ? 'red' : status >= 400 ? 'yellow' : status >= 300 ? 'cyan' : 'green');

/** Fields every line has, or that the line's head already shows. */
const SHOWN = new Set(['level', 'time', 'service', 'msg', 'pid', 'hostname', 'err', 'requestId', 'merchantId']);
const REQUEST_SHOWN = new Set([...SHOWN, 'method', 'path', 'status', 'durationMs', 'errorCode']);

/** A field as `name=value`: text as it is when it has no spaces, anything else as JSON. */
const field = (name: string, value: unknown) => `${name}=${typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value)}`;

function clockTime(time: unknown): string {
  const date = new Date(typeof time === 'number' || typeof time === 'string' ? time : Date.now());
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/**
 * One pino JSON line as a person reads it: the time, the level, then for a request its status,
 * method, path, duration, error code, merchant and request id; for anything else the message and
 * its fields. An error's stack follows on its own lines.
 */
export function prettyLine(json: string, colours: boolean): string {
  const paint = (colour: Colour, text: string) => (colours ? `\u001b[${ANSI[colour]}m${text}\u001b[0m` : text);
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const head = `${paint('dim', clockTime(entry.time))} ${paint(levelColour(level), (LEVELS[level] ?? String(level)).padEnd(5))}`;
  const isRequest = entry.msg === 'request' && typeof entry.status === 'number';
  const parts: string[] = [];
  if (isRequest) {
    const status = entry.status as number;
    parts.push(paint(statusColour(status), String(status)), `${String(entry.method)} ${String(entry.path)}`);
    if (typeof entry.durationMs === 'number') parts.push(paint('dim', formatDuration(entry.durationMs)));
    if (typeof entry.errorCode === 'string') parts.push(paint(statusColour(status), entry.errorCode));
  } else parts.push(String(entry.msg ?? ''));
  const shown = isRequest ? REQUEST_SHOWN : SHOWN;
  const rest = Object.entries(entry).filter(([name, value]) => !shown.has(name) && value !== undefined).map(([name, value]) => field(name, value));
  if (entry.merchantId !== undefined) rest.push(field('merchant', entry.merchantId));
  if (entry.requestId !== undefined) rest.push(field('request', entry.requestId));
  if (rest.length > 0) parts.push(paint('dim', rest.join(' ')));
  const err = entry.err as { message?: unknown; stack?: unknown } | undefined;
  const stack = err ? `\n${paint('red', String(err.stack ?? err.message).replace(/^/gm, '    '))}` : '';
  return `${head} ${parts.join(' ')}${stack}\n`;
}

/** A pino destination that writes each line through `prettyLine` to `out`, flushing through to it. */
export function prettyDestination(out: DestinationStream & { flush?: (done?: (err?: Error) => void) => void }, colours: boolean): DestinationStream {
  return {
    write: (line: string) => out.write(prettyLine(line, colours)),
    ...(out.flush ? { flush: (done?: (err?: Error) => void) => out.flush?.(done) } : {}),
  } as DestinationStream;
}
