import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { AuthHeaders } from '../headers.js';
import { commonErrorResponses, ApiError } from '../errors.js';
import { meta } from '../meta.js';
import { Payment } from '../payments/schemas.js';
import { PayerOutcomeBody } from '../payments/alternative-methods.js';
import { SessionEnrolledPaymentMethod } from '../payment-methods/schemas.js';
import { BankingAccount, BankingOnboarding } from '../banking/schemas.js';
import {
  AdvanceClockBody,
  ChargebackBody,
  CompleteEnrollmentBody,
  CompleteEnrollmentParams,
  CreateMerchantBody,
  DisputeOutcomeBody,
  ListEventsQuery,
  ResetResult,
  SandboxClock,
  SandboxEvent,
  SandboxMerchant,
  SandboxPaymentParams,
  OnboardingOutcomeBody,
  OnboardingOutcomeParams,
  ScriptedOutcomes,
  ScriptOutcomesBody,
  ScriptOutcomesParams,
  DeliveryParams,
  FundBalanceBody,
  ListDeliveriesQuery,
  RecipientBalance,
  RecipientBalanceParams,
  WebhookDelivery,
} from './schemas.js';
import { InspectorOverview, InspectorOverviewQuery } from './inspector.js';

const c = initContract();

const sandboxMeta = (operationId: string) =>
  meta({ operationId, idempotent: false, supporting: true, specSection: null, domain: 'sandbox' });

/**
 * The sandbox control API: drives states the real service reaches on its own. Every route but
 * merchant creation takes the merchant's keys and acts on that merchant only.
 */
export const sandboxContract = c.router(
  {
    createMerchant: {
      method: 'POST',
      path: '/merchants',
      body: CreateMerchantBody,
      responses: { 201: SandboxMerchant, 400: ApiError, 403: ApiError },
      summary: 'Create an isolated merchant (tenant) with fresh keys',
      metadata: meta({ operationId: 'sandboxCreateMerchant', idempotent: false, supporting: true, specSection: null, domain: 'sandbox', auth: 'none' }),
    },
    getClock: {
      method: 'GET',
      path: '/clock',
      headers: AuthHeaders,
      responses: { 200: SandboxClock, ...commonErrorResponses },
      summary: "Read the merchant's sandbox clock",
      metadata: sandboxMeta('sandboxGetClock'),
    },
    advanceClock: {
      method: 'POST',
      path: '/clock/advance',
      headers: AuthHeaders,
      body: AdvanceClockBody,
      responses: { 200: SandboxClock, ...commonErrorResponses },
      summary: "Move the merchant's clock forward; everything due runs",
      metadata: sandboxMeta('sandboxAdvanceClock'),
    },
    reset: {
      method: 'POST',
      path: '/reset',
      headers: AuthHeaders,
      body: c.noBody(),
      responses: { 200: ResetResult, ...commonErrorResponses },
      summary: "Delete all of the merchant's data (keys and accounts stay)",
      metadata: sandboxMeta('sandboxReset'),
    },
    listEvents: {
      method: 'GET',
      path: '/events',
      headers: AuthHeaders,
      query: ListEventsQuery,
      responses: { 200: z.array(SandboxEvent), ...commonErrorResponses },
      summary: 'List the events recorded for the merchant, oldest first',
      metadata: sandboxMeta('sandboxListEvents'),
    },
    chargeback: {
      method: 'POST',
      path: '/payments/:payment_id/chargeback',
      pathParams: SandboxPaymentParams,
      headers: AuthHeaders,
      body: ChargebackBody,
      responses: { 200: Payment, ...commonErrorResponses },
      summary: 'Receive a chargeback on a captured payment',
      metadata: sandboxMeta('sandboxChargeback'),
    },
    disputeOutcome: {
      method: 'POST',
      path: '/payments/:payment_id/dispute-outcome',
      pathParams: SandboxPaymentParams,
      headers: AuthHeaders,
      body: DisputeOutcomeBody,
      responses: { 200: Payment, ...commonErrorResponses },
      summary: 'Resolve the dispute of a charged-back payment as WON or LOST',
      metadata: sandboxMeta('sandboxDisputeOutcome'),
    },
    payerOutcome: {
      method: 'POST',
      path: '/payments/:payment_id/payer-outcome',
      pathParams: SandboxPaymentParams,
      headers: AuthHeaders,
      body: PayerOutcomeBody,
      responses: { 200: Payment, ...commonErrorResponses },
      summary: 'Play the payer of a payment that waits for one (PIX, voucher, bank transfer, redirect): it ends SUCCEEDED, DECLINED or EXPIRED',
      metadata: sandboxMeta('sandboxPayerOutcome'),
    },
    completeEnrollment: {
      method: 'POST',
      path: '/customers/sessions/:customer_session/payment-methods/:payment_method_id/complete',
      pathParams: CompleteEnrollmentParams,
      headers: AuthHeaders,
      body: CompleteEnrollmentBody,
      responses: { 200: SessionEnrolledPaymentMethod, ...commonErrorResponses },
      summary: 'Play the SDK step of a session enrollment: the method becomes ENROLLED (or DECLINED)',
      metadata: sandboxMeta('sandboxCompleteEnrollment'),
    },
    scriptOutcomes: {
      method: 'POST',
      path: '/payment-methods/:vaulted_token/outcomes',
      pathParams: ScriptOutcomesParams,
      headers: AuthHeaders,
      body: ScriptOutcomesBody,
      responses: { 200: ScriptedOutcomes, ...commonErrorResponses },
      summary: 'Script the outcomes of the next charges of an enrolled method',
      metadata: sandboxMeta('sandboxScriptOutcomes'),
    },
    onboardingOutcome: {
      method: 'POST',
      path: '/banking/onboardings/:onboarding_id/outcome',
      pathParams: OnboardingOutcomeParams,
      headers: AuthHeaders,
      body: OnboardingOutcomeBody,
      responses: {
        200: z.object({ onboarding: BankingOnboarding, account: BankingAccount.nullable() }),
        404: ApiError,
        ...commonErrorResponses,
      },
      summary: 'Move a banking onboarding on; SUCCEEDED opens a banking account',
      metadata: sandboxMeta('sandboxOnboardingOutcome'),
    },
    getRecipientBalance: {
      method: 'GET',
      path: '/recipients/:recipient_id/balance',
      pathParams: RecipientBalanceParams,
      headers: AuthHeaders,
      responses: { 200: RecipientBalance, 404: ApiError, ...commonErrorResponses },
      summary: "Read a recipient's transfer balance, per currency",
      metadata: sandboxMeta('sandboxGetRecipientBalance'),
    },
    fundRecipientBalance: {
      method: 'POST',
      path: '/recipients/:recipient_id/balance',
      pathParams: RecipientBalanceParams,
      headers: AuthHeaders,
      body: FundBalanceBody,
      responses: { 200: RecipientBalance, 404: ApiError, ...commonErrorResponses },
      summary: "Add funds to a recipient's transfer balance; standalone transfers are paid from it",
      metadata: sandboxMeta('sandboxFundRecipientBalance'),
    },
    listWebhookDeliveries: {
      method: 'GET',
      path: '/webhook-deliveries',
      headers: AuthHeaders,
      query: ListDeliveriesQuery,
      responses: { 200: z.array(WebhookDelivery), ...commonErrorResponses },
      summary: "List the merchant's webhook deliveries with every attempt, oldest first",
      metadata: sandboxMeta('sandboxListWebhookDeliveries'),
    },
    redeliverWebhook: {
      method: 'POST',
      path: '/webhook-deliveries/:delivery_id/redeliver',
      pathParams: DeliveryParams,
      headers: AuthHeaders,
      body: c.noBody(),
      responses: { 200: WebhookDelivery, 404: ApiError, ...commonErrorResponses },
      summary: 'Send a delivery again now (one more attempt)',
      metadata: sandboxMeta('sandboxRedeliverWebhook'),
    },
    getInspectorOverview: {
      method: 'GET',
      path: '/inspector/overview',
      headers: AuthHeaders,
      query: InspectorOverviewQuery,
      responses: { 200: InspectorOverview, ...commonErrorResponses },
      summary: "The newest records of each kind the merchant has (customers, payments, subscriptions, transfers, banking), newest first: what the inspector page shows",
      metadata: sandboxMeta('sandboxGetInspectorOverview'),
    },
  },
  { pathPrefix: '/sandbox', strictStatusCodes: true },
);
