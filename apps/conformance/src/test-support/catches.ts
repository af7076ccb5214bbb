import { fileURLToPath } from 'node:url';
import type { Fault } from './fault-proxy.js';

/**
 * Each fault, injected alone by a proxy between the runner and a correct sandbox, must fail the
 * check that names it: [fault, the check, the operation it fails on, the --only selection].
 */
export const CATCHES: [Fault, string, string, string?, string[]?][] = [
  ['wrong_status', 'status_code_conformance', 'createCustomer'],
  ['missing_field', 'response_schema_conformance', 'getCustomer'],
  ['wrong_enum', 'response_schema_conformance', 'createRecipient'],
  ['over_refund', 'amount_invariants', 'refundTransaction'],
  ['ignore_auth', 'ignored_auth', 'createCustomer'],
  ['ignore_idempotency', 'idempotency_replay', 'createPayment'],
  // 1. the exact status and code of each negative case
  ['transfer_404_as_400', 'unknown_resource', 'reverseTransfer'],
  ['banking_404_as_400', 'unknown_resource', 'getBankingOnboarding'],
  ['webhook_404_as_400', 'unknown_resource', 'getWebhook'],
  ['payment_not_found_as_404', 'unknown_resource', 'getPayment'],
  ['not_found_generic_code', 'unknown_resource', 'refundTransaction'],
  ['validation_as_422', 'negative_data_rejection', 'createCustomer'],
  ['validation_as_server_error_code', 'negative_data_rejection', 'createRecipient'],
  ['banking_validation_generic_code', 'negative_data_rejection', 'createBankingEntity'],
  ['banking_http_code_mismatch', 'negative_data_rejection', 'createBankingEntity'],
  ['missing_keys_as_403', 'missing_required_header', 'getCustomer'],
  ['missing_keys_wrong_code', 'missing_required_header', 'createPayment'],
  ['put_as_404', 'unsupported_method', 'createPayment'],
  ['missing_idempotency_key_accepted', 'missing_required_header', 'refundTransaction'],
  // 2. negative data at every depth, and the state it leaves alone
  ['nested_amount_not_positive', 'negative_data_rejection', 'refundTransaction'],
  ['required_field_defaulted', 'negative_data_rejection', 'createCheckoutSession'],
  ['metadata_over_limit_truncated', 'negative_data_rejection', 'createCustomer'],
  ['long_string_truncated', 'negative_data_rejection', 'createPaymentLink'],
  ['enum_defaulted', 'negative_data_rejection', 'cancelOrRefundPayment'],
  ['malformed_json_server_error', 'negative_data_rejection', 'createCustomer'],
  ['array_body_unwrapped', 'negative_data_rejection', 'createCustomer'],
  ['invalid_request_applied_then_refused', 'negative_data_rejection', 'refundTransaction'],
  ['non_uuid_key_accepted', 'idempotency_key_format', 'createBankingEntity'],
  // 3. strict schemas at every depth, UTC timestamps, error messages, the request id
  ['nested_undocumented_field', 'response_schema_conformance', 'getPayment'],
  ['undocumented_field_in_array_item', 'response_schema_conformance', 'createCustomer'],
  ['timestamp_with_offset', 'utc_timestamps', 'getCustomer'],
  ['nested_timestamp_local_time', 'utc_timestamps', 'getPayment'],
  ['empty_error_messages', 'error_messages', 'createCustomer'],
  ['messages_without_field', 'negative_data_rejection', 'createPayment'],
  ['no_request_id', 'request_id_header', 'getCustomer'],
  ['request_id_not_echoed', 'request_id_header', 'createPayment'],
  ['error_as_text', 'content_type_conformance', 'createCustomer'],
  // 4. idempotency across state changes and body mismatch
  ['replay_returns_current_state', 'idempotency_replay', 'createPayment'],
  ['same_key_other_body_creates', 'idempotency_replay', 'createPayment'],
  // 5. deep masking
  ['card_number_with_spaces', 'masking', 'all', 'getPayment,masking'],
  ['card_number_with_dashes_in_error', 'masking', 'all', 'createPayment,masking'],
  ['security_code_deep', 'masking', 'all', 'createPayment,masking'],
  // 6. the flows' own answers pass the per-response checks
  ['flow_full_refund_wrong_status', 'state_transition', 'refundTransaction', 'state_transition'],
  ['flow_refund_via_cancel_as_text', 'state_transition', 'cancelOrRefundPayment', 'state_transition'],
  ['flow_full_reversal_undocumented_field', 'state_transition', 'reverseTransfer', 'state_transition'],
  // 8. a valid request with every optional field, and the spec's business rules
  ['optional_field_rejected', 'maximal_data_acceptance', 'createCustomer', 'createCustomer'],
  ['duplicate_customer_accepted', 'business_rules', 'createCustomer', 'business_rules'],
  ['evidence_on_purchase_accepted', 'business_rules', 'disputeChargeback', 'business_rules'],
  // 7. webhook deliveries (the proxy passes them on to the suite's receiver, bent)
  ['webhook_signature_hex', 'webhook_delivery', 'createWebhook', 'webhook_delivery'],
  ['webhook_signed_before_reserialising', 'webhook_delivery', 'createWebhook', 'webhook_delivery'],
  ['webhook_envelope_undocumented_field', 'webhook_delivery', 'createWebhook', 'webhook_delivery'],
  // 9. money states and idempotency through the public API alone
  ['replay_without_header', 'idempotency_replay', 'createPayment', 'idempotency_replay'],
  ['concurrent_create_duplicated', 'idempotency_in_flight', 'createPayment', 'idempotency_in_flight'],
  ['partial_refund_reported_full', 'state_transition', 'refundTransaction', 'state_transition'],
  ['refund_total_rounded', 'amount_invariants', 'refundTransaction', 'amount_invariants'],
  ['capture_not_applied', 'state_transition', 'captureAuthorization', 'state_transition'],
  ['second_capture_accepted', 'state_transition', 'captureAuthorization', 'state_transition'],
  ['cancel_reported_as_refund', 'state_transition', 'cancelOrRefundPayment', 'state_transition'],
  ['declined_card_approved', 'state_transition', 'createPayment', 'state_transition'],
  ['customer_read_stale', 'state_transition', 'createCustomer', 'state_transition'],
  ['payment_link_code_reused', 'state_transition', 'createPaymentLink', 'state_transition'],
  ['payment_forgets_session', 'state_transition', 'createCheckoutSession', 'state_transition'],
  // 7. a slow route (the proxy adds 600 ms; the run's budget is 300 ms)
  ['slow_route', 'latency_budget', 'getCustomer', 'getCustomer', ['--latency-budget-ms', '300']],
];

/**
 * The state and idempotency faults the staging profile must catch through the public API alone:
 * each runs with --profile staging behind a server without the /sandbox control API.
 */
export const STAGING_CATCHES: Fault[] = [
  'over_refund',
  'ignore_idempotency',
  'replay_returns_current_state',
  'same_key_other_body_creates',
  'missing_idempotency_key_accepted',
  'invalid_request_applied_then_refused',
  'nested_amount_not_positive',
  'flow_full_refund_wrong_status',
  'flow_refund_via_cancel_as_text',
  'duplicate_customer_accepted',
  'evidence_on_purchase_accepted',
  'replay_without_header',
  'concurrent_create_duplicated',
  'partial_refund_reported_full',
  'refund_total_rounded',
  'capture_not_applied',
  'second_capture_accepted',
  'cancel_reported_as_refund',
  'declined_card_approved',
  'customer_read_stale',
  'payment_link_code_reused',
  'payment_forgets_session',
];

/**
 * Checks that judge no invalid body: a fault they catch is run with `--max-negative 0`, which
 * leaves out the exhaustive invalid bodies of the selected routes (most of a run's requests).
 */
const JUDGE_NO_INVALID_BODY = new Set([
  'status_code_conformance',
  'response_schema_conformance',
  'utc_timestamps',
  'request_id_header',
  'unknown_resource',
  'ignored_auth',
  'unsupported_method',
  'missing_required_header',
  'idempotency_key_format',
  'maximal_data_acceptance',
  'idempotency_replay',
  'business_rules',
  'state_transition',
  'amount_invariants',
  'webhook_delivery',
  'latency_budget',
]);

/** The CLI arguments of a fault's run, after --base-url: its selection and options. */
export function runArgs([, check, op, only, extra]: (typeof CATCHES)[number]): string[] {
  return ['--only', only ?? op, ...(JUDGE_NO_INVALID_BODY.has(check) ? ['--max-negative', '0'] : []), ...(extra ?? [])];
}

/** Where the catch table is shown, between these markers. */
export const DOC = fileURLToPath(new URL('../../../../docs/conformance.md', import.meta.url));
export const TABLE_START = '<!-- catch-table:start (written by `pnpm --filter @switchyard/conformance catch-table` from src/test-support/catches.ts) -->';
export const TABLE_END = '<!-- catch-table:end -->';

/** The table as markdown: each fault, the check it must fail, the operation, and the run's selection. */
export function catchTable(): string {
  const rows = CATCHES.map((c) => `| \`${c[0]}\` | \`${c[1]}\` | ${c[2]} | \`${runArgs(c).join(' ')}\` |`);
  return ['| Fault | Fails the check | On | Run with |', '|---|---|---|---|', ...rows, ''].join('\n');
}
