import { Type } from '@sinclair/typebox';
import { openAccount } from '../../core/accounts/open.ts';
import { getAccount, updateAccount } from '../../core/accounts/service.ts';
import { depositAmount } from '../../core/billing/ledger.ts';
import { settleAfterDeposit } from '../../core/billing/service.ts';
import { billingSettings } from '../billing-settings.ts';
import { locate, ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { AmountString, Envelope, StringEnum, errorResponses, ref } from '../schemas.ts';
import { AccountSchema, TransactionSchema, accountView, apiKeyView, transactionView } from '../v2/presenters.ts';
import { NewKeyFields, NewKeySchema } from './api-keys.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'accounts' as const };
const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

const OpenedAccountSchema = Type.Composite([AccountSchema, Type.Object({
  deposit: Type.Optional(ref(TransactionSchema)),
  api_key: Type.Optional(NewKeySchema),
})]);

const Profile = {
  email: Type.String({ format: 'email', maxLength: 254 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  company: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  phone: Type.Optional(Type.Union([Type.String({ minLength: 3, maxLength: 32, pattern: '^\\+?[0-9 ()-]+$' }), Type.Null()])),
  country: Type.Optional(Type.Union([Type.String({ pattern: '^[A-Za-z]{2}$' }), Type.Null()])),
};

export function register(app: TypedApp, deps: RouteDeps) {
  const { db } = deps;
  app.post('/accounts', {
    config: admin,
    schema: {
      tags: ['Admin'],
      operationId: 'createAccount',
      summary: 'Open an account, optionally with an opening deposit and a first API key, in one transaction',
      description: 'Every input is checked before anything is written; if any part fails nothing is created. '
        + 'The answer is the account as it stands after the deposit, with `deposit` (the ledger row) and `api_key` '
        + '(its secret `key`, shown only here) when they were asked for.',
      body: Type.Object({
        ...Profile,
        deposit: Type.Optional(Type.Object({
          amount: AmountString,
          description: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Default "Initial deposit"' })),
        }, { additionalProperties: false })),
        api_key: Type.Optional(Type.Object(NewKeyFields, { additionalProperties: false })),
      }, { additionalProperties: false }),
      response: { 201: Envelope(OpenedAccountSchema), ...errorResponses() },
    },
  }, async (request, reply) => {
    const { deposit, api_key: key, ...profile } = request.body;
    const opened = await openAccount(db, {
      profile,
      deposit,
      apiKey: key && { name: key.name, ipAllowlist: key.ip_allowlist, isTest: key.is_test, scopes: key.scopes },
    });
    reply.code(201);
    locate(reply, deps.config.publicUrl, 'admin', 'v1', 'accounts', opened.account.id);
    return reply.send(ok(request, {
      ...accountView(opened.account),
      ...(opened.deposit ? { deposit: transactionView(opened.deposit) } : {}),
      ...(opened.apiKey ? { api_key: { ...apiKeyView(opened.apiKey.key), key: opened.apiKey.secret } } : {}),
    }));
  });

  app.get('/accounts/:id', {
    config: admin,
    schema: { tags: ['Admin'], params: Id, response: { 200: Envelope(AccountSchema), ...errorResponses() } },
  }, async (request) => ok(request, accountView(await getAccount(db, request.params.id))));

  app.patch('/accounts/:id', {
    config: admin,
    schema: {
      tags: ['Admin'],
      params: Id,
      body: Type.Object({
        status: Type.Optional(StringEnum(['active', 'suspended', 'closed'] as const)),
        email: Type.Optional(Profile.email),
        name: Type.Optional(Profile.name),
        company: Profile.company,
        phone: Profile.phone,
        country: Profile.country,
      }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Envelope(AccountSchema), ...errorResponses() },
    },
  }, async (request) => ok(request, accountView(await updateAccount(db, request.params.id, request.body))));

  app.post('/accounts/:id/deposits', {
    config: { ...admin, right: 'billing' as const },
    schema: {
      tags: ['Admin'],
      params: Id,
      body: Type.Object({
        amount: AmountString,
        description: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
      }, { additionalProperties: false }),
      response: { 201: Envelope(TransactionSchema), ...errorResponses() },
    },
  }, async (request, reply) => {
    const tx = await depositAmount(db, request.params.id, request.body.amount, request.body.description);
    // What the deposit covers is paid at once, oldest first, and the services it paid for resume.
    await settleAfterDeposit(db, deps.services, billingSettings(deps), deps.now(), request.params.id,
      (err, what) => request.log.error({ err, resource: what }, 'billing after a deposit failed; the next pass retries it'));
    reply.code(201);
    // A ledger row has no URL of its own: the account's transactions, newest first.
    locate(reply, deps.config.publicUrl, 'admin', 'v1', 'accounts', request.params.id, 'transactions');
    return reply.send(ok(request, transactionView(tx)));
  });
}
