import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { collector } from '../../test-support/gc.js';
import { SNAPSHOT_FORMAT, type SandboxMerchant, type Snapshot } from '@switchyard/contract';
import { clientsFor, newMerchant } from '../../test-support/harness.js';
import { eventually } from '../../test-support/receiver.js';
import { sandboxOn, storesUnderTest } from '../../test-support/stores.js';
import { SNAPSHOT_VERSION } from '../../app/snapshots.js';
import { createHttpServer } from './http-server.js';
import type { OutputLimits } from '../../config.js';


const CLIENTS = 100;
const MB = 1024 * 1024;

/** A merchant holding about 5 MB of customers: its snapshot is the large response. */
async function largeMerchant(url: string): Promise<SandboxMerchant> {
  const merchant = await newMerchant(url);
  const now = new Date().toISOString();
  const records = Array.from({ length: 2_000 }, (_, i) => {
    const id = crypto.randomUUID();
    // A customer as the API keeps one (the import checks it), with a long name for the bulk.
    return { kind: 'customer', id, unique_key: `cus-${i}`, data: { id, merchant_customer_id: `cus-${i}`, first_name: 'x'.repeat(2_500), created_at: now, updated_at: now } };
  });
  const snapshot: Snapshot = { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, exported_at: '2026-01-01T00:00:00.000Z', merchant: { account_ids: merchant.account_ids, clock_offset_seconds: 0 }, records };
  const imported = await clientsFor(url, merchant).sandbox.importSnapshot({ body: snapshot });
  if (imported.status !== 200) throw new Error(`import: ${JSON.stringify(imported.body)}`);
  return merchant;
}

/** `count` connections that ask for the snapshot and never read a byte of it. */
function nonReaders(port: number, merchant: SandboxMerchant, count: number): Socket[] {
  const request = `GET /sandbox/snapshot HTTP/1.1\r\nhost: sandbox\r\npublic-api-key: ${merchant.public_api_key}\r\nprivate-secret-key: ${merchant.private_secret_key}\r\n\r\n`;
  return Array.from({ length: count }, () => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.pause();
    socket.on('error', () => {});
    return socket;
  });
}

const openConnections = (server: Server) => new Promise<number>((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

describe.each(storesUnderTest('output-guard.test.ts'))('clients that never read their responses, on the $name store', (store) => {
  const sb = sandboxOn(store);

  /** A second server on the sandbox's app, with these limits, counting the responses ended (queued whole). */
  async function serve(limits: OutputLimits) {
    const server = createHttpServer(sb.sandbox.app, {}, limits);
    let finished = 0;
    server.on('request', (_req, res) => res.once('prefinish', () => (finished += 1)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.address() as AddressInfo).port, finished: () => finished };
  }

  it(`holds at most its output budget for ${CLIENTS} clients that ask for a 5 MB snapshot and never read it`, async () => {
    const gc = collector();
    const merchant = await largeMerchant(sb.url);
    const { server, port, finished } = await serve({ writeTimeoutMs: 600_000, budgetBytes: 64 * MB });
    gc();
    const before = process.memoryUsage();
    const sockets = nonReaders(port, merchant, CLIENTS);
    try {
      await eventually(async () => (finished() === CLIENTS ? true : undefined), 110_000);
      gc();
      const after = process.memoryUsage();
      const grownMb = (after.heapUsed + after.external - before.heapUsed - before.external) / MB;
      console.info(`${CLIENTS} non-reading snapshot clients (${store.name}): +${grownMb.toFixed(1)} MB held, ${(server.output.pendingBytes / MB).toFixed(1)} MB unread in buffers`);
      expect(server.output.pendingBytes).toBeLessThanOrEqual(64 * MB);
      expect(grownMb).toBeLessThan(100);
      // The connections past the budget were closed.
      expect(await openConnections(server)).toBeLessThan(CLIENTS);
    } finally {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      server.close();
    }
  }, 120_000);

  it('closes the connection of a client that reads nothing for the write time-out', async () => {
    const merchant = await largeMerchant(sb.url);
    const { server, port } = await serve({ writeTimeoutMs: 300, budgetBytes: 1024 * MB });
    const sockets = nonReaders(port, merchant, 1);
    try {
      await eventually(async () => ((await openConnections(server)) === 1 ? true : undefined));
      // The server closes it once the client has read nothing for 300 ms.
      await eventually(async () => ((await openConnections(server)) === 0 ? true : undefined));
      expect(server.output.pendingBytes).toBe(0);
    } finally {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      server.close();
    }
  }, 60_000);
});
