import type { SandboxEvent } from '@switchyard/contract';

/** A state change worth telling the merchant about (webhooks deliver these). */
export type DomainEvent = Omit<SandboxEvent, 'id' | 'created_at'>;

export function event(type: string, resourceType: string, resourceId: string, accountId: string | null, data: Record<string, unknown>): DomainEvent {
  return { type, resource_type: resourceType, resource_id: resourceId, account_id: accountId, data };
}
