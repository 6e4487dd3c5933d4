// GET /invoices (the account's invoices and credit notes, newest first), GET /invoices/{id},
// GET /invoices/{id}/pdf (application/pdf). billing:read; another account's invoice is not found.
import { Type } from '@sinclair/typebox';
import { getOwnInvoice, invoicePdf, listOwnInvoices } from '../../core/payments/invoices.ts';
import { InvoiceSchema, PdfResponse, invoiceView, sendPdf } from '../payments/views.ts';
import { ok, page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, ListEnvelope, PageQuery, errorResponses } from '../schemas.ts';
import { actor } from './actor.ts';

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const READ_ERRORS = ['AUTH_REQUIRED', 'AUTH_SCOPE_INSUFFICIENT'] as const;

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/invoices', {
    schema: { querystring: Type.Object({ ...PageQuery() }, { additionalProperties: false }), response: { 200: ListEnvelope(InvoiceSchema), ...errorResponses(...READ_ERRORS) } },
  }, async (request) => page(request, await listOwnInvoices(deps.db, actor(request), pageOf(request.query)), invoiceView));

  app.get('/invoices/:id', {
    schema: { params: Id, response: { 200: Envelope(InvoiceSchema), ...errorResponses(...READ_ERRORS, 'RESOURCE_NOT_FOUND') } },
  }, async (request) => ok(request, invoiceView(await getOwnInvoice(deps.db, actor(request), request.params.id))));

  app.get('/invoices/:id/pdf', {
    schema: { params: Id, response: { 200: PdfResponse, ...errorResponses(...READ_ERRORS, 'RESOURCE_NOT_FOUND') } },
  }, async (request, reply) => {
    const inv = await getOwnInvoice(deps.db, actor(request), request.params.id);
    return sendPdf(reply, inv.number, await invoicePdf(deps.db, inv));
  });
}
