import { initContract } from '@ts-rest/core';
import { v1RouterOptions, withDeclaredErrors } from '../shared/router.js';
import { meta } from '../meta.js';
import { UuidIdempotencyKeyHeader } from '../headers.js';
import {
  AccountIdParams,
  BankingAccount,
  BankingEntity,
  BankingOnboarding,
  CreateEntityBody,
  CreateOnboardingBody,
  EntityIdParams,
  OnboardingParams,
  UpdateAccountBody,
} from './schemas.js';

const c = initContract();

// The banking family answers real 404/409/422/429 (STATUS_OF), with `http_code` in the body.
export const bankingContract = withDeclaredErrors(c.router(
  {
    createEntity: {
      method: 'POST',
      path: '/banking/entities',
      headers: UuidIdempotencyKeyHeader,
      body: CreateEntityBody,
      responses: { 201: BankingEntity },
      summary: 'Create a banking entity',
      description:
        'Creates an individual or an entity for banking connectivity. merchant_entity_id is unique per account (409 DUPLICATE_ENTITY). Tax ids and document numbers come back masked.',
      metadata: meta({ operationId: 'createBankingEntity', idempotent: true, supporting: false, specSection: '4.8', domain: 'banking', errors: ['VALIDATION_ERROR', 'DUPLICATE_ENTITY', 'CURRENCY_MISMATCH', 'TOO_MANY_REQUESTS'] }),
    },
    createOnboarding: {
      method: 'POST',
      path: '/banking/entities/:entity_id/onboardings',
      pathParams: EntityIdParams,
      headers: UuidIdempotencyKeyHeader,
      body: CreateOnboardingBody,
      responses: { 201: BankingOnboarding },
      summary: 'Onboard an entity with a banking connectivity provider',
      description:
        'ONE_STEP submits everything at once (compliance_declaration required) and starts PENDING; PREVIOUSLY_ONBOARDED records an internal onboarding id without contacting the provider.',
      metadata: meta({ operationId: 'createBankingOnboarding', idempotent: true, supporting: false, specSection: '4.4', domain: 'banking', errors: ['VALIDATION_ERROR', 'ENTITY_NOT_FOUND', 'DUPLICATE_ENTITY', 'CURRENCY_MISMATCH', 'TOO_MANY_REQUESTS'] }),
    },
    getOnboarding: {
      method: 'GET',
      path: '/banking/entities/:entity_id/onboardings/:onboarding_id',
      pathParams: OnboardingParams,
      responses: { 200: BankingOnboarding },
      summary: 'Get an onboarding status',
      metadata: meta({ operationId: 'getBankingOnboarding', idempotent: false, supporting: true, specSection: null, domain: 'banking', errors: ['ENTITY_NOT_FOUND', 'ONBOARDING_NOT_FOUND', 'TOO_MANY_REQUESTS'] }),
    },
    updateAccount: {
      method: 'PATCH',
      path: '/banking/accounts/:account_id',
      pathParams: AccountIdParams,
      body: UpdateAccountBody,
      responses: { 200: BankingAccount },
      summary: 'Update a banking account',
      description: 'Changes the fields sent (account_type); the others stay as they are.',
      metadata: meta({ operationId: 'updateBankingAccount', idempotent: false, supporting: false, specSection: '4.14', domain: 'banking', errors: ['VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND', 'CURRENCY_MISMATCH', 'TOO_MANY_REQUESTS'] }),
    },
  },
  v1RouterOptions,
));
