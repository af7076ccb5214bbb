import { MemoryStore } from './memory.js';
import { storeContract } from '../test-support/store-contract.js';

// The memory store runs a merchant's transactions one at a time: one begun while another runs is
// queued behind it from its start.
storeContract('MemoryStore', async () => new MemoryStore(), async () => true);
