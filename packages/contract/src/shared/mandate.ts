import { z } from 'zod';
import { DateTime, text } from './primitives.js';

/** A direct-debit mandate attached to bank transfer details. */
export const Mandate = z.object({
  id: text(1, 255).optional(),
  info: text(1, 1024).optional(),
  received_status: text(1, 64).optional(),
  existing_status: text(1, 64).optional(),
  created_at: DateTime.optional(),
  updated_at: DateTime.optional(),
});
