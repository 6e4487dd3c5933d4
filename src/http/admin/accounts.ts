import { Type } from '@sinclair/typebox';
import { createAccount, getAccount, updateAccount } from '../../core/accounts/service.ts';
import { depositAmount } from '../../core/billing/ledger.ts';
import { ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { AmountString, Envelope, StringEnum, errorResponses } from '../schemas.ts';
import { AccountSchema, TransactionSchema, accountView, transactionView } from '../v2/presenters.ts';

const admin = { auth: 'admin' as const, rateLimit: false };
const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

const Profile = {
  email: Type.String({ format: 'email', maxLength: 254 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  company: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  phone: Type.Optional(Type.Union([Type.String({ minLength: 3, maxLength: 32, pattern: '^\\+?[0-9 ()-]+$' }), Type.Null()])),
  country: Type.Optional(Type.Union([Type.String({ pattern: '^[A-Za-z]{2}$' }), Type.Null()])),
};

export function register(app: TypedApp, { db }: RouteDeps) {
  app.post('/accounts', {
    config: admin,
    schema: {
      tags: ['Admin'],
      body: Type.Object(Profile, { additionalProperties: false }),
      response: { 201: Envelope(AccountSchema), ...errorResponses() },
    },
  }, async (request, reply) => reply.code(201).send(ok(request, accountView(await createAccount(db, request.body)))));

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
    config: admin,
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
    return reply.code(201).send(ok(request, transactionView(tx)));
  });
}
