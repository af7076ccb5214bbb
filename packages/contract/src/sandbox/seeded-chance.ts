import { z } from 'zod';

/**
 * The fields by which a sandbox rule (a fault rule, a webhook chaos rule) fires by chance: a
 * probability drawn from a PRNG the rule seeds, so the same rule and the same traffic pick the
 * same requests or deliveries on every run. Each rule adds its own `times` bound.
 */
export const SeededChanceFields = {
  /** The chance a matching request or delivery is picked (default 1), drawn from the rule's PRNG. */
  probability: z.number().gt(0).max(1).optional(),
  /** Seed of the rule's PRNG (default 0). */
  seed: z.number().int().min(0).max(0xffffffff).optional(),
};

/** The same fields as a stored rule answers them, with its `times` (null: no limit). */
export const StoredSeededChanceFields = {
  probability: z.number(),
  seed: z.number().int(),
  times: z.number().int().nullable(),
};
