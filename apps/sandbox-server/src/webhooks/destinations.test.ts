import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { clientsFor, newMerchant, pay } from '../test-support/harness.js';
import { eventually, startReceiver } from '../test-support/receiver.js';
import { sandboxOn, storesUnderTest } from '../test-support/stores.js';
import { parseDestinations, type DestinationPolicy } from '../config.js';
import { DestinationGuard, isPublicAddress, REFUSED, SELF } from './destinations.js';

const self = () => ({ port: 4010, publicHost: 'sandbox.example.test', publicPort: 443 });

/** What the guard's lookup answers for `url`: the address connected to, or the refusal. */
function resolve(guard: DestinationGuard, url: string): Promise<string> {
  return new Promise((done) => {
    guard.lookupFor(new URL(url))(new URL(url).hostname, { all: true }, (err, addresses) => done(err ? err.message : (addresses as unknown as LookupAddress[])[0]?.address ?? ''));
  });
}

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', false], ['10.1.2.3', false], ['172.20.0.1', false], ['192.168.1.1', false], ['169.254.169.254', false], ['100.64.0.1', false],
    ['0.0.0.0', false], ['224.0.0.1', false], ['::1', false], ['fd00::1', false], ['fe80::1', false], ['::ffff:127.0.0.1', false], ['::ffff:10.0.0.1', false],
    ['93.184.216.34', true], ['8.8.8.8', true], ['2606:4700::1111', true], ['::ffff:8.8.8.8', true],
  ])('%s is public: %s', (address, expected) => expect(isPublicAddress(address)).toBe(expected));
});

describe('parseDestinations', () => {
  it('reads any, public and an allow-list, and refuses anything else', () => {
    expect(parseDestinations('any')).toEqual({ kind: 'any' });
    expect(parseDestinations(' PUBLIC ')).toEqual({ kind: 'public' });
    expect(parseDestinations('hooks.example.com,*.example.org,10.0.0.5:8080')).toEqual({ kind: 'allow', hosts: ['hooks.example.com', '*.example.org', '10.0.0.5:8080'] });
    expect(parseDestinations('http://x/ y')).toBeUndefined();
  });
});

describe('DestinationGuard', () => {
  const guard = (policy: DestinationPolicy) => new DestinationGuard(policy, self);

  it('refuses the sandbox itself under every policy, by its public URL or a local address on its port', () => {
    for (const policy of [{ kind: 'any' }, { kind: 'public' }, { kind: 'allow', hosts: ['sandbox.example.test', '127.0.0.1:4010'] }] as DestinationPolicy[]) {
      expect(guard(policy).refusal('https://sandbox.example.test/sandbox/merchants')).toBe(SELF);
      expect(guard(policy).refusal('http://127.0.0.1:4010/sandbox/merchants')).toBe(SELF);
      expect(guard(policy).refusal('http://[::1]:4010/')).toBe(SELF);
    }
    expect(guard({ kind: 'any' }).refusal('http://127.0.0.1:4011/hooks')).toBeUndefined();
  });

  it('with public destinations only, refuses loopback, private and metadata addresses and localhost names', () => {
    const g = guard({ kind: 'public' });
    for (const url of ['http://127.0.0.1:3000/', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.5/', 'http://localhost:3000/', 'http://api.localhost/', 'http://[fd00::1]/']) {
      expect(g.refusal(url), url).toBe(REFUSED);
    }
    expect(g.refusal('https://hooks.example.com/x')).toBeUndefined();
  });

  it('with an allow-list, takes its hosts (a port when given, *. for subdomains) and nothing else', () => {
    const g = guard({ kind: 'allow', hosts: ['hooks.example.com', '*.example.org', '10.0.0.5:8080'] });
    expect(g.refusal('https://hooks.example.com/a')).toBeUndefined();
    expect(g.refusal('https://a.b.example.org/a')).toBeUndefined();
    expect(g.refusal('http://10.0.0.5:8080/a')).toBeUndefined();
    expect(g.refusal('http://10.0.0.5:8081/a')).toBe(REFUSED);
    expect(g.refusal('https://example.org.evil.test/a')).toBe(REFUSED);
    expect(g.refusal('https://evil.test/a')).toBe(REFUSED);
  });

  it('checks the address connected to: a name resolving to loopback is refused with public destinations, with one message whatever answers there', async () => {
    const g = guard({ kind: 'public' });
    const open = await startReceiver();
    try {
      const port = new URL(open.url).port;
      expect(await resolve(g, `http://localhost:${port}/hooks`)).toBe(REFUSED);
      expect(await resolve(g, 'http://localhost:9/hooks')).toBe(REFUSED);
      expect(await resolve(guard({ kind: 'any' }), `http://localhost:${port}/hooks`)).toMatch(/^(127\.0\.0\.1|::1)$/);
      expect(await resolve(guard({ kind: 'any' }), 'http://localhost:4010/sandbox/merchants')).toBe(SELF);
    } finally {
      await open.close();
    }
  });
});

describe.each(storesUnderTest('destinations.test.ts'))('webhook destinations on the $name store', (store) => {
  const sb = sandboxOn(store);
  const allowList = sandboxOn(store, { webhookDestinations: { kind: 'allow', hosts: ['allowed.example.test'] } });
  const publicOnly = sandboxOn(store, { webhookDestinations: { kind: 'public' } });

  async function create(url: string, target: string) {
    const merchant = await newMerchant(url);
    const clients = clientsFor(url, merchant);
    return { merchant, clients, res: await clients.webhooks.create({ body: { account_id: merchant.account_ids[0] as string, name: 'hook', url: target, payment_triggers: ['PURCHASE'] } }) };
  }

  it('never lets a webhook call the sandbox itself (the control API creating merchants), by default too', async () => {
    for (const target of [`${sb.url}/sandbox/merchants`, `${sb.url.replace('127.0.0.1', 'localhost')}/sandbox/merchants`, `${sb.url.replace('127.0.0.1', '0.0.0.0')}/sandbox/merchants`]) {
      const { res } = await create(sb.url, target);
      expect(res, target).toMatchObject({ status: 400, body: { code: 'WEBHOOK_URL_UNSAFE', messages: [expect.stringContaining(SELF)] } });
    }
  });

  it('delivers to a local receiver by default', async () => {
    const receiver = await startReceiver();
    try {
      const { merchant, clients, res } = await create(sb.url, receiver.url);
      expect(res.status).toBe(201);
      await pay(clients, merchant);
      await eventually(async () => (receiver.received.length === 1 ? true : undefined));
    } finally {
      await receiver.close();
    }
  });

  it('with public destinations only, refuses loopback and the metadata address with one message', async () => {
    for (const target of ['http://127.0.0.1:5432/', 'http://127.0.0.1:9/', 'http://169.254.169.254/latest/meta-data', 'http://localhost:6379/']) {
      const { res } = await create(publicOnly.url, target);
      expect(res, target).toMatchObject({ status: 400, body: { code: 'WEBHOOK_URL_UNSAFE', messages: [`url ${target}: ${REFUSED}`] } });
    }
  });

  it('with an allow-list, refuses a host not on it', async () => {
    expect((await create(allowList.url, 'http://127.0.0.1:3000/hooks')).res).toMatchObject({ status: 400, body: { code: 'WEBHOOK_URL_UNSAFE' } });
    expect((await create(allowList.url, 'https://allowed.example.test/hooks')).res.status).toBe(201);
  });
});
