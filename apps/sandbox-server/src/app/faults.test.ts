import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateFaultRuleBody } from '@switchyard/contract';
import { BaseClock } from '../runtime/clock.js';
import { IdFactory } from '../runtime/ids.js';
import { MemoryStore } from '../store/memory.js';
import type { MerchantRecord, Store } from '../store/types.js';
import { withTransactions } from '../store/with-transactions.js';
import { freshSchemaStores, testDatabaseUrl } from '../test-support/database.js';
import type { RequestContext } from './context.js';
import { clearFaultRules, createFaultRule, deleteFaultRule, listFaultRules } from './faults.js';

/** Two sandbox replicas' stores: one memory store seen twice, or two pools on one PostgreSQL schema. */
interface Replicas {
  a: Store;
  b: Store;
  close(): Promise<void>;
}

const url = testDatabaseUrl('app/faults.test.ts');
const setups: { name: string; open(): Promise<Replicas> }[] = [
  {
    name: 'memory',
    open: async () => {
      const store = new MemoryStore();
      return { a: store, b: store, close: async () => {} };
    },
  },
];
if (url) {
  setups.push({
    name: 'PostgreSQL, two replicas',
    open: async () => {
      const db = await freshSchemaStores(url);
      return { a: await db.connect(3), b: await db.connect(3), close: db.close };
    },
  });
}

/** The store, with each `updateMerchant` call first awaiting `before()`: how a test puts another replica's work between two steps. */
function beforeEachMerchantUpdate(store: Store, before: () => Promise<void>): Store {
  return new Proxy(store, {
    get: (target, prop) => {
      if (prop === 'updateMerchant') {
        return async (...args: Parameters<Store['updateMerchant']>) => {
          await before();
          return target.updateMerchant(...args);
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const rule: CreateFaultRuleBody = { match: { operation_id: 'createCustomer' }, effect: { type: 'status', status: 503 } };

describe.each(setups)('the fault-rules mark on the merchant ($name)', ({ open }) => {
  let replicas: Replicas;
  beforeAll(async () => {
    replicas = await open();
  });
  afterAll(() => replicas.close());

  /** A merchant of its own, and a request context on `store` as authentication would build it. */
  async function newMerchant(): Promise<{ id: string; on(store: Store): Promise<RequestContext>; mark(): Promise<Pick<MerchantRecord, 'fault_rules_used'>> }> {
    const id = crypto.randomUUID();
    const record: MerchantRecord = {
      id,
      name: 'faults mark',
      public_api_key: `pub-${id}`,
      secret_key_digest: 'not used here',
      account_ids: [],
      fingerprint_key: 'fp',
      clock_offset_seconds: 0,
      created_at: '2026-01-01T00:00:00.000Z',
    };
    await replicas.a.putMerchantIfAbsent(record);
    return {
      id,
      on: async (store) => ({ merchant: (await store.getMerchant(id)) as MerchantRecord, store, clock: new BaseClock(undefined), ids: new IdFactory(undefined).for(id), baseUrl: 'http://sandbox.test' }),
      mark: async () => ({ fault_rules_used: (await replicas.a.getMerchant(id))?.fault_rules_used }),
    };
  }

  it('is set when a rule is stored and cleared when the last rule is deleted or all are cleared', async () => {
    const m = await newMerchant();
    expect(await m.mark()).toEqual({ fault_rules_used: undefined });
    const first = await createFaultRule(await m.on(replicas.a), rule);
    const second = await createFaultRule(await m.on(replicas.b), rule);
    expect(await m.mark()).toEqual({ fault_rules_used: true });
    await deleteFaultRule(await m.on(replicas.a), first.id);
    expect(await m.mark()).toEqual({ fault_rules_used: true });
    await deleteFaultRule(await m.on(replicas.b), second.id);
    expect(await m.mark()).toEqual({ fault_rules_used: undefined });
    await createFaultRule(await m.on(replicas.b), rule);
    expect(await m.mark()).toEqual({ fault_rules_used: true });
    expect(await clearFaultRules(await m.on(replicas.a))).toEqual({ deleted: 1 });
    expect(await m.mark()).toEqual({ fault_rules_used: undefined });
  });

  it('stays when another replica stores a rule after the delete saw none and before it clears the mark', async () => {
    const m = await newMerchant();
    const only = await createFaultRule(await m.on(replicas.a), rule);
    const created: string[] = [];
    // The delete's only merchant update is its clear: the other replica stores and marks a rule first.
    const deleting = beforeEachMerchantUpdate(replicas.a, async () => {
      created.push((await createFaultRule(await m.on(replicas.b), rule)).id);
    });
    await deleteFaultRule(await m.on(deleting), only.id);
    expect(await m.mark()).toEqual({ fault_rules_used: true });
    expect((await listFaultRules(await m.on(replicas.a))).map((r) => r.id)).toEqual(created);
  });

  it('is not cleared by a delete that ran whole while another replica was about to store a rule', async () => {
    const m = await newMerchant();
    const only = await createFaultRule(await m.on(replicas.a), rule);
    let deleted = false;
    // The create's first transaction stores the rule: the other replica's delete runs whole just before it.
    const creating = withTransactions(replicas.b, async (merchantId, fn) => {
      if (!deleted) {
        deleted = true;
        await deleteFaultRule(await m.on(replicas.a), only.id);
      }
      return replicas.b.withTransaction(merchantId, fn);
    });
    const created = await createFaultRule(await m.on(creating), rule);
    expect(await m.mark()).toEqual({ fault_rules_used: true });
    expect((await listFaultRules(await m.on(replicas.a))).map((r) => r.id)).toEqual([created.id]);
  });

  it('comes back when another replica stored a rule the clear did not see, and marks it after the clear', async () => {
    const m = await newMerchant();
    const only = await createFaultRule(await m.on(replicas.a), rule);
    let stored!: () => void;
    const ruleStored = new Promise<void>((resolve) => (stored = resolve));
    let cleared!: () => void;
    const clearDone = new Promise<void>((resolve) => (cleared = resolve));
    // The other replica's create reaches its mark (the rule is stored) and waits for the clear to end.
    const creating = beforeEachMerchantUpdate(replicas.b, async () => {
      stored();
      await clearDone;
    });
    let creation: Promise<unknown> | undefined;
    const deleting = beforeEachMerchantUpdate(replicas.a, async () => {
      creation = m.on(creating).then((ctx) => createFaultRule(ctx, rule));
      await ruleStored;
    });
    await deleteFaultRule(await m.on(deleting), only.id);
    expect(await m.mark()).toEqual({ fault_rules_used: undefined });
    cleared();
    await creation;
    expect(await m.mark()).toEqual({ fault_rules_used: true });
    expect(await listFaultRules(await m.on(replicas.a))).toHaveLength(1);
  });
});
