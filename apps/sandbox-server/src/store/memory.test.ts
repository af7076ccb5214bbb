import { MemoryStore } from './memory.js';
import { storeContract } from './store-contract.js';

storeContract('MemoryStore', async () => new MemoryStore());
