// The operator's payments: GET /payments[?account_id=&status=], GET /payments/{id},
// POST /payments/{id}/refresh (asks the provider how a pending one stands, and settles it — for a
// webhook that never came), and POST /deposits/{id}/refunds {amount?, reason?} (Idempotency-Key
// optional): refunds (part of) a paid top-up's deposit — off the balance, back through the
// provider — with a credit note (201); a refund cut off half-way is finished by the next try.
// Monthly statements of any account: GET /accounts/{id}/statements/{month}[/pdf].
import { Type } from '@sinclair/typebox';
import { parseIdempotencyKey } from '../../core/idempotency/service.ts';
import { refundDeposit } from '../../core/payments/refunds.ts';
import { monthlyStatement } from '../../core/payments/statement.ts';
import { statementPdf } from '../../core/payments/statement-pdf.ts';
import { getPayment, listPayments, refreshAnyPayment } from '../../core/payments/top-up.ts';
import { paymentDeps } from '../payments/deps.ts';
import { InvoiceSchema, PaymentSchema, PdfResponse, StatementSchema, invoiceView, paymentView, sendPdf, statementView } from '../payments/views.ts';
import { locate, ok, page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { AmountString, Envelope, IdempotencyKeyHeaders, IntId, ListEnvelope, PageQuery, StringEnum, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'billing' as const };
const tags = ['Admin payments'];
const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const AccountMonth = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), month: Type.String({ minLength: 1, maxLength: 16, description: 'YYYY-MM' }) });

export function register(app: TypedApp, deps: RouteDeps) {
  const { db } = deps;
  app.get('/payments', {
    config: admin,
    schema: {
      operationId: 'listPayments', tags, summary: "Customers' top-up payments, newest first",
      querystring: Type.Object({
        ...PageQuery(),
        account_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        status: Type.Optional(StringEnum(['pending', 'paid', 'declined', 'expired', 'failed'] as const)),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(PaymentSchema), ...errorResponses() },
    },
  }, async (request) => page(request, await listPayments(db, { accountId: request.query.account_id, status: request.query.status }, pageOf(request.query)), paymentView));

  app.get('/payments/:id', {
    config: admin,
    schema: { operationId: 'getPayment', tags, params: Id, response: { 200: Envelope(PaymentSchema), ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, async (request) => ok(request, paymentView(await getPayment(db, request.params.id))));

  app.post('/payments/:id/refresh', {
    config: admin,
    schema: {
      operationId: 'refreshPayment', tags, summary: 'Ask the provider how a pending payment stands, and apply it (credits it once if paid)',
      params: Id, response: { 200: Envelope(PaymentSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request) => ok(request, paymentView(await refreshAnyPayment(paymentDeps(deps, request.log), request.params.id))));

  app.post('/deposits/:id/refunds', {
    config: admin,
    schema: {
      operationId: 'refundDeposit', tags, summary: "Refund (part of) a paid top-up's deposit, with a credit note",
      description: 'Takes the amount off the balance (422 INSUFFICIENT_BALANCE when it no longer holds it) and records the refund, has the payment '
        + "provider pay the gross back, then issues a credit note referring to the top-up's invoice for it and its share of the tax. If the "
        + 'provider errs or anything fails after the provider paid, the refund stays pending with the amount reserved: the same request sent again '
        + '(or the worker, within minutes) finishes it, and the provider pays it once. A provider that refuses it: 502, the amount is back on the '
        + 'balance, no credit note. With an Idempotency-Key, the same key always answers the same refund.',
      params: Type.Object({ id: IntId }),
      headers: IdempotencyKeyHeaders,
      body: Type.Object({
        amount: Type.Optional(AmountString),
        reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
      }, { additionalProperties: false }),
      response: { 201: Envelope(InvoiceSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'INSUFFICIENT_BALANCE', 'UPSTREAM_ERROR', 'IDEMPOTENCY_KEY_CONFLICT') },
    },
  }, async (request, reply) => {
    const key = parseIdempotencyKey(request.headers['idempotency-key']);
    const { note, replayed } = await refundDeposit({ db, provider: deps.services.payments, now: deps.now }, request.params.id, { ...request.body, requestKey: key });
    reply.code(201);
    if (replayed) reply.header('Idempotent-Replayed', 'true');
    locate(reply, deps.config.publicUrl, 'admin', 'v1', 'invoices', note.id);
    return reply.send(ok(request, invoiceView(note)));
  });

  app.get('/accounts/:id/statements/:month', {
    config: admin,
    schema: { operationId: 'getStatement', tags, params: AccountMonth, response: { 200: Envelope(StatementSchema), ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, async (request) => ok(request, statementView(await monthlyStatement(db, request.params.id, request.params.month, deps.now()))));

  app.get('/accounts/:id/statements/:month/pdf', {
    config: admin,
    schema: { operationId: 'getStatementPdf', tags, params: AccountMonth, response: { 200: PdfResponse, ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, async (request, reply) => {
    const now = deps.now();
    const s = await monthlyStatement(db, request.params.id, request.params.month, now);
    return sendPdf(reply, `statement-${s.accountId}-${s.month}`, await statementPdf(db, s, now));
  });
}
