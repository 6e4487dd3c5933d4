// The operator's views of accounts: search, an account's API keys, its ledger. Paged like every
// list; an unknown account is 404.
import { Type } from '@sinclair/typebox';
import { getAccount, listAccounts } from '../../core/accounts/service.ts';
import { listApiKeys } from '../../core/api-keys/service.ts';
import { listTransactions } from '../../core/billing/ledger.ts';
import { page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { ListEnvelope, PageQuery, StringEnum, errorResponses } from '../schemas.ts';
import { AccountSchema, ApiKeySchema, TransactionSchema, accountView, apiKeyView, transactionView } from '../v2/presenters.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'accounts' as const };
const tags = ['Admin'];
const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/accounts', {
    config: admin,
    schema: {
      tags,
      operationId: 'listAccounts',
      summary: 'Accounts, newest first; search by part of the email or name, or by id, and filter by status',
      querystring: Type.Object({
        email: Type.Optional(Type.String({ maxLength: 254, description: 'Part of the email, any case' })),
        q: Type.Optional(Type.String({ maxLength: 254, description: 'Part of the email or name (any case), or the beginning of the id' })),
        status: Type.Optional(StringEnum(['active', 'suspended', 'closed'] as const)),
        ...PageQuery(),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(AccountSchema), ...errorResponses() },
    },
  }, async (request) => {
    const { email, q, status, ...p } = request.query;
    return page(request, await listAccounts(db, { email, q, status }, pageOf(p)), accountView);
  });

  app.get('/accounts/:id/api-keys', {
    config: { ...admin, right: 'access' as const },
    schema: {
      tags,
      operationId: 'listAccountApiKeys',
      summary: "An account's API keys, revoked ones included (never their secrets)",
      params: Id,
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(ApiKeySchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    await getAccount(db, request.params.id);
    return page(request, await listApiKeys(db, request.params.id, pageOf(request.query)), apiKeyView);
  });

  app.get('/accounts/:id/transactions', {
    config: { ...admin, right: 'billing' as const },
    schema: {
      tags,
      operationId: 'listAccountTransactions',
      summary: "An account's ledger, newest first",
      params: Id,
      querystring: Type.Object({
        type: Type.Optional(StringEnum(['deposit', 'withdraw', 'refund'] as const)),
        ...PageQuery(),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(TransactionSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    await getAccount(db, request.params.id);
    const { type, ...p } = request.query;
    return page(request, await listTransactions(db, request.params.id, { type }, pageOf(p)), transactionView);
  });
}
