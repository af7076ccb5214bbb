import { describe, expect, it } from 'vitest';
import { logFormatFor, prettyDestination, prettyLine } from './log-format.js';
import { createLogger } from './logger.js';

const TIME = '2026-11-28T14:03:07.512Z';
const localClock = (iso: string) => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:${String(d.getSeconds()).padStart(2, '0')}.${String(d.getMilliseconds()).padStart(3, '0')}`;
};

describe('prettyLine', () => {
  it('writes a request as time, level, status, method, path, duration, error code, merchant and request id', () => {
    const json = JSON.stringify({ level: 30, time: TIME, service: 'switchyard-sandbox', requestId: 'req-1', method: 'POST', path: '/v1/payments', status: 400, durationMs: 44.1, errorCode: 'INVALID_REQUEST', merchantId: 'mer_1', msg: 'request' });
    expect(prettyLine(json, false)).toBe(`${localClock(TIME)} INFO  400 POST /v1/payments 44 ms INVALID_REQUEST merchant=mer_1 request=req-1\n`);
  });

  it('writes other entries as their message and fields, with an error\'s stack below', () => {
    const json = JSON.stringify({ level: 50, time: TIME, service: 'switchyard-sandbox', requestId: 'req-2', err: { message: 'boom', stack: 'Error: boom\n    at x' }, msg: 'unhandled error' });
    expect(prettyLine(json, false)).toBe(`${localClock(TIME)} ERROR unhandled error request=req-2\n    Error: boom\n        at x\n`);
    expect(prettyLine(JSON.stringify({ level: 30, time: TIME, signal: 'SIGINT', note: 'two words', msg: 'shutting down' }), false)).toBe(`${localClock(TIME)} INFO  shutting down signal=SIGINT note="two words"\n`);
  });

  it('colours the level and the status only when asked', () => {
    const json = JSON.stringify({ level: 30, time: TIME, method: 'GET', path: '/', status: 503, durationMs: 1, msg: 'request' });
    expect(prettyLine(json, true)).toContain('\u001b[31m503\u001b[0m');
    expect(prettyLine(json, false)).not.toContain('\u001b[');
  });

  it('passes a line that is not JSON through unchanged', () => {
    expect(prettyLine('plain text', false)).toBe('plain text\n');
  });
});

describe('log formats', () => {
  it('are pretty on a terminal and JSON elsewhere, unless one is given', () => {
    expect([logFormatFor(undefined, true), logFormatFor(undefined, false), logFormatFor('json', true), logFormatFor('pretty', false)]).toEqual(['pretty', 'json', 'json', 'pretty']);
  });

  it('write JSON lines with an ISO time, or pretty lines, from the same logger', () => {
    const lines: string[] = [];
    const sink = { write: (line: string) => void lines.push(line) };
    createLogger('info', sink).info({ requestId: 'r', method: 'GET', path: '/health', status: 200, durationMs: 0.3 }, 'request');
    createLogger('info', prettyDestination(sink, false)).info({ requestId: 'r', method: 'GET', path: '/health', status: 200, durationMs: 0.3 }, 'request');
    expect(JSON.parse(lines[0] as string)).toMatchObject({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), status: 200 });
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}200 GET \/health 0\.3 ms request=r\n$/);
  });
});
