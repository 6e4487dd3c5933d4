// GET /statements (the months a statement exists for: the account's life, newest first),
// GET /statements/{month} (JSON: the month's ledger between its opening and closing balance) and
// GET /statements/{month}/pdf, for a month such as 2026-03. billing:read.
import { Type } from '@sinclair/typebox';
import { ownStatement, ownStatementMonths } from '../../core/payments/statement.ts';
import { statementPdf } from '../../core/payments/statement-pdf.ts';
import { PdfResponse, StatementSchema, sendPdf, statementView } from '../payments/views.ts';
import { ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, errorResponses } from '../schemas.ts';
import { actor } from './actor.ts';

export const Month = Type.Object({ month: Type.String({ minLength: 1, maxLength: 16, description: 'YYYY-MM' }) });

const Months = Type.Object({
  months: Type.Array(Type.String({ examples: ['2026-03'] }), { description: 'From the current month back to the one the account was opened in (UTC)' }),
});

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/statements', {
    schema: { response: { 200: Envelope(Months), ...errorResponses('AUTH_REQUIRED', 'AUTH_SCOPE_INSUFFICIENT') } },
  }, async (request) => ok(request, { months: await ownStatementMonths(deps.db, actor(request), deps.now()) }));

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
