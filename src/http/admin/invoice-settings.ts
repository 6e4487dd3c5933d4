// What every invoice prints about the operator: GET|POST /invoice-settings (company name, address,
// tax id, invoice number prefix, footer; POST changes the fields it names), and the tax rate table:
// GET /tax-rates, PUT /tax-rates/{country} {rate: "19.00", label?: "VAT"}, DELETE /tax-rates/{country}.
// An account's own billing details (address, tax id): GET|PUT /accounts/{id}/billing-details.
import { Type } from '@sinclair/typebox';
import {
  type InvoiceSettings, type TaxRate, getBillingDetails, getInvoiceSettings, listTaxRates, removeTaxRate, setBillingDetails, setTaxRate, updateInvoiceSettings,
} from '../../core/payments/settings.ts';
import { formatRate } from '../../core/payments/tax.ts';
import { ts } from '../../core/time.ts';
import { ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, Timestamp, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'billing' as const };
const tags = ['Admin invoices'];

const SettingsSchema = Type.Object({
  company_name: Type.String(),
  address: Type.String(),
  tax_id: Type.String(),
  invoice_prefix: Type.String(),
  footer: Type.String(),
  updated_at: Timestamp,
}, { title: 'InvoiceSettings' });

const settingsView = (s: InvoiceSettings) => ({
  company_name: s.company_name, address: s.address, tax_id: s.tax_id, invoice_prefix: s.invoice_prefix, footer: s.footer, updated_at: ts(s.updated_at),
});

const TaxRateSchema = Type.Object({ country: Type.String(), rate: Type.String({ description: 'Percent, two decimals' }), label: Type.String(), updated_at: Timestamp }, { title: 'TaxRate' });
const taxRateView = (r: TaxRate) => ({ country: r.country, rate: formatRate(r.rate_bp), label: r.label, updated_at: ts(r.updated_at) });

const Country = Type.Object({ country: Type.String({ minLength: 1, maxLength: 8 }) });
const BillingDetailsSchema = Type.Object({ address: Type.String(), tax_id: Type.String() }, { title: 'BillingDetails' });

export function register(app: TypedApp, { db, now }: RouteDeps) {
  app.get('/invoice-settings', {
    config: admin,
    schema: { operationId: 'getInvoiceSettings', tags, response: { 200: Envelope(SettingsSchema), ...errorResponses() } },
  }, async (request) => ok(request, settingsView(await getInvoiceSettings(db))));

  app.post('/invoice-settings', {
    config: admin,
    schema: {
      operationId: 'setInvoiceSettings', tags, summary: 'Change the company details invoices print (the fields given)',
      description: 'Invoices already issued keep the details they were issued with.',
      body: Type.Object({
        company_name: Type.Optional(Type.String({ maxLength: 200 })),
        address: Type.Optional(Type.String({ maxLength: 1000 })),
        tax_id: Type.Optional(Type.String({ maxLength: 64 })),
        invoice_prefix: Type.Optional(Type.String({ minLength: 1, maxLength: 12, description: 'Capital letters and digits; numbers read <PREFIX>-2026-000001' })),
        footer: Type.Optional(Type.String({ maxLength: 1000 })),
      }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Envelope(SettingsSchema), ...errorResponses() },
    },
  }, async (request) => ok(request, settingsView(await updateInvoiceSettings(db, request.body, now()))));

  app.get('/tax-rates', {
    config: admin,
    schema: { operationId: 'listTaxRates', tags, response: { 200: Envelope(Type.Array(TaxRateSchema)), ...errorResponses() } },
  }, async (request) => ok(request, (await listTaxRates(db)).map(taxRateView)));

  app.put('/tax-rates/:country', {
    config: admin,
    schema: {
      operationId: 'setTaxRate', tags, summary: "Set a country's tax rate (customers of a country without one pay none)",
      params: Country,
      body: Type.Object({
        rate: Type.String({ minLength: 1, maxLength: 8, description: 'Percent, e.g. "19.00"' }),
        label: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'What invoices call it, e.g. VAT; default Tax' })),
      }, { additionalProperties: false }),
      response: { 200: Envelope(TaxRateSchema), ...errorResponses() },
    },
  }, async (request) => ok(request, taxRateView(await setTaxRate(db, request.params.country, request.body, now()))));

  app.delete('/tax-rates/:country', {
    config: admin,
    schema: { operationId: 'deleteTaxRate', tags, params: Country, response: { 200: Envelope(Type.Object({ country: Type.String(), deleted: Type.Boolean() })), ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, async (request) => {
    await removeTaxRate(db, request.params.country);
    return ok(request, { country: request.params.country.toUpperCase(), deleted: true });
  });

  const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
  app.get('/accounts/:id/billing-details', {
    config: admin,
    schema: { operationId: 'getBillingDetails', tags, params: Id, response: { 200: Envelope(BillingDetailsSchema), ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, async (request) => ok(request, await getBillingDetails(db, request.params.id)));

  app.put('/accounts/:id/billing-details', {
    config: admin,
    schema: {
      operationId: 'setBillingDetails', tags, summary: "The account's address and tax id, as its next invoices print them",
      params: Id,
      body: Type.Object({ address: Type.Optional(Type.String({ maxLength: 1000 })), tax_id: Type.Optional(Type.String({ maxLength: 64 })) }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Envelope(BillingDetailsSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, await setBillingDetails(db, request.params.id, request.body, now())));
}
