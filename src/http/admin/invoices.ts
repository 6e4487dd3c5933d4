// The operator's invoices: GET /invoices[?account_id=&kind=] (every account's, newest first),
// GET /invoices/{id}, GET /invoices/{id}/pdf (application/pdf).
import { Type } from '@sinclair/typebox';
import { getInvoice, invoicePdf, listInvoices } from '../../core/payments/invoices.ts';
import { InvoiceSchema, PdfResponse, invoiceView, sendPdf } from '../payments/views.ts';
import { ok, page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, ListEnvelope, PageQuery, StringEnum, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'billing' as const };
const tags = ['Admin invoices'];
const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/invoices', {
    config: admin,
    schema: {
      operationId: 'listInvoices', tags, summary: 'List invoices and credit notes',
      querystring: Type.Object({
        ...PageQuery(),
        account_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        kind: Type.Optional(StringEnum(['invoice', 'credit_note'] as const)),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(InvoiceSchema), ...errorResponses() },
    },
  }, async (request) => page(request, await listInvoices(db, { accountId: request.query.account_id, kind: request.query.kind }, pageOf(request.query)), invoiceView));

  app.get('/invoices/:id', {
    config: admin,
    schema: { operationId: 'getInvoice', tags, params: Id, response: { 200: Envelope(InvoiceSchema), ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, async (request) => ok(request, invoiceView(await getInvoice(db, request.params.id))));

  app.get('/invoices/:id/pdf', {
    config: admin,
    schema: { operationId: 'getInvoicePdf', tags, params: Id, response: { 200: PdfResponse, ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, async (request, reply) => {
    const inv = await getInvoice(db, request.params.id);
    return sendPdf(reply, inv.number, await invoicePdf(db, inv));
  });
}
