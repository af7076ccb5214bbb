import type pg from 'pg';
import { ConfigError } from '../config-error.js';
import { SecretKeyDigests, generatePepper } from '../runtime/secret-keys.js';

const PEPPER = 'secret_key_pepper';
const CHECK = 'secret_key_pepper_check';

/**
 * The pepper of this database's merchant secret-key digests, in `sandbox_settings` (migration 3).
 * Given from outside (SANDBOX_SECRET_KEY_PEPPER), only its check value is kept, and a process
 * given another one refuses to start instead of answering 401 to every merchant. Not given, one
 * is generated once and kept in the database, so every replica and every restart shares it.
 * Runs under the migration lock, so replicas starting together agree on one.
 */
export async function secretKeysOf(client: pg.ClientBase, given: string | undefined): Promise<SecretKeyDigests> {
  const rows = await client.query<{ name: string; value: string }>('SELECT name, value FROM sandbox_settings WHERE name = ANY($1)', [[PEPPER, CHECK]]);
  const stored = new Map(rows.rows.map((r) => [r.name, r.value]));
  const keep = (name: string, value: string) => client.query('INSERT INTO sandbox_settings (name, value) VALUES ($1, $2)', [name, value]);
  const storedCheck = stored.get(CHECK);
  if (given !== undefined) {
    const keys = new SecretKeyDigests(given);
    if (storedCheck === undefined) await keep(CHECK, keys.check());
    else if (storedCheck !== keys.check()) {
      throw new ConfigError(
        `SANDBOX_SECRET_KEY_PEPPER is not the pepper this database's merchant secret keys were stored with${stored.has(PEPPER) ? ' (it keeps its own: start without one)' : ''}`,
      );
    }
    return keys;
  }
  const pepper = stored.get(PEPPER);
  if (pepper !== undefined) return new SecretKeyDigests(pepper);
  if (storedCheck !== undefined) throw new ConfigError("this database's merchant secret keys were stored with a pepper from outside: start with the same SANDBOX_SECRET_KEY_PEPPER");
  const generated = generatePepper();
  const keys = new SecretKeyDigests(generated);
  await keep(PEPPER, generated);
  await keep(CHECK, keys.check());
  return keys;
}
