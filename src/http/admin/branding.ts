// The installation's branding (white label): GET|PUT /settings/branding. PUT replaces it as a whole
// (fields left out are cleared); the logo is a PNG or SVG data URL of at most 256 KB, an SVG that
// could run script or fetch anything is refused (422, field logo, code UNSAFE).
import { Type } from '@sinclair/typebox';
import { type Branding, NAME_MAX, URL_MAX, getBranding, setBranding } from '../../core/branding/branding.ts';
import { ts } from '../../core/time.ts';
import { ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, NullableTimestamp, errorResponses } from '../schemas.ts';

const tags = ['Admin settings'];
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const BrandingSchema = Type.Object({
  name: Type.String({ description: 'Shown in the panel, the console, mails, invoices, the checkout and the docs. Default Hostcloud' }),
  logo: Nullable(Type.String({ description: 'A data URL of a PNG or SVG image' })),
  primary_color: Type.String({ description: '#rrggbb' }),
  support_email: Nullable(Type.String({ description: 'null only while nothing has been saved' })),
  support_url: Nullable(Type.String()),
  terms_url: Nullable(Type.String()),
  privacy_url: Nullable(Type.String()),
  updated_at: NullableTimestamp,
}, { title: 'Branding' });

export const brandingView = (b: Branding) => ({
  name: b.name, logo: b.logo, primary_color: b.primary_color, support_email: b.support_email,
  support_url: b.support_url, terms_url: b.terms_url, privacy_url: b.privacy_url, updated_at: b.updated_at ? ts(b.updated_at) : null,
});

const OptionalUrl = Type.Optional(Nullable(Type.String({ maxLength: URL_MAX, description: 'http:// or https://' })));

export function register(app: TypedApp, { db, now }: RouteDeps) {
  app.get('/settings/branding', {
    config: { auth: 'admin', rateLimit: false, right: 'settings' },
    schema: { operationId: 'getBranding', tags, summary: "The installation's branding (the defaults until one is saved)", response: { 200: Envelope(BrandingSchema), ...errorResponses() } },
  }, async (request) => ok(request, brandingView(await getBranding(db))));

  app.put('/settings/branding', {
    config: { auth: 'admin', rateLimit: false, right: 'settings' },
    schema: {
      operationId: 'setBranding', tags, summary: 'Replace the branding as a whole',
      description: 'Fields left out are cleared. Pages show the change at their next load; mails sent and invoices issued from now on carry it.',
      body: Type.Object({
        name: Type.String({ maxLength: NAME_MAX * 2 }),
        logo: Nullable(Type.String({ description: 'data:image/png;base64,… or data:image/svg+xml;base64,…, at most 256 KB decoded; null for none' })),
        primary_color: Type.String({ maxLength: 20, description: '#rrggbb' }),
        support_email: Type.String({ maxLength: 320 }),
        support_url: OptionalUrl,
        terms_url: OptionalUrl,
        privacy_url: OptionalUrl,
      }, { additionalProperties: false }),
      response: { 200: Envelope(BrandingSchema), ...errorResponses() },
    },
  }, async (request) => ok(request, brandingView(await setBranding(db, request.body, now()))));
}
