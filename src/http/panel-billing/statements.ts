// GET /statements/{month} (JSON: the month's ledger between its opening and closing balance) and
// GET /statements/{month}/pdf, for a month such as 2026-03. billing:read.
import { Type } from '@sinclair/typebox';
import { ownStatement } from '../../core/payments/statement.ts';
import { statementPdf } from '../../core/payments/statement-pdf.ts';
import { PdfResponse, StatementSchema, sendPdf, statementView } from '../payments/views.ts';
import { ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, errorResponses } from '../schemas.ts';
import { actor } from './actor.ts';

export const Month = Type.Object({ month: Type.String({ minLength: 1, maxLength: 16, description: 'YYYY-MM' }) });

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/statements/:month', {
    schema: { params: Month, response: { 200: Envelope(StatementSchema), ...errorResponses('AUTH_REQUIRED', 'AUTH_SCOPE_INSUFFICIENT') } },
  }, async (request) => ok(request, statementView(await ownStatement(deps.db, actor(request), request.params.month, deps.now()))));

  app.get('/statements/:month/pdf', {
    schema: { params: Month, response: { 200: PdfResponse, ...errorResponses('AUTH_REQUIRED', 'AUTH_SCOPE_INSUFFICIENT') } },
  }, async (request, reply) => {
    const now = deps.now();
    const s = await ownStatement(deps.db, actor(request), request.params.month, now);
    return sendPdf(reply, `statement-${s.accountId}-${s.month}`, await statementPdf(deps.db, s, now));
  });
}
