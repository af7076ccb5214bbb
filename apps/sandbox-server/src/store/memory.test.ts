import { MemoryStore } from './memory.js';
import { storeContract } from './store-contract.js';

// The memory store runs a merchant's transactions one at a time: one begun while another runs is
// queued behind it from its start.
storeContract('MemoryStore', async () => new MemoryStore(), async () => true);
// Every record compressed in its own commit: each rule holds on compacted records too.
storeContract('MemoryStore, records compacted at commit', async () => new MemoryStore({ compaction: 'at-commit' }), async () => true);
