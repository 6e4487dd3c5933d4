// The branding as the panel's page carries it (assets.ts embeds it), and the logo the page shows:
// GET /panel/assets/logo?v=<hash>. The URL names the logo's content, so a browser keeps it until
// the branding names another; a logo is decoded from the stored data URL, never sent as HTML.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type Branding, getBranding } from '../../core/branding/branding.ts';
import { parseLogo } from '../../core/branding/logo.ts';
import type { Db } from '../../core/types.ts';
import type { PanelBrand } from './assets.ts';

const logoTag = (dataUrl: string) => createHash('sha256').update(dataUrl).digest('base64url').slice(0, 16);

export function brandOf(b: Branding): PanelBrand {
  return {
    name: b.name, primary_color: b.primary_color, logo_url: b.logo ? `/panel/assets/logo?v=${logoTag(b.logo)}` : null,
    support_email: b.support_email, support_url: b.support_url, terms_url: b.terms_url, privacy_url: b.privacy_url,
  };
}

export async function panelBrand(db: Db): Promise<PanelBrand> {
  return brandOf(await getBranding(db));
}

export function registerLogo(app: FastifyInstance, db: Db): void {
  app.get<{ Querystring: { v?: string } }>('/assets/logo', { config: { rateLimit: false } }, async (request, reply) => {
    const { logo } = await getBranding(db);
    reply.header('X-Content-Type-Options', 'nosniff')
      // An SVG opened by itself may do nothing: it was checked when saved, and this says so again.
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    if (!logo) return reply.code(404).header('Cache-Control', 'no-cache').type('text/plain; charset=utf-8').send('No logo');
    const { type, bytes } = parseLogo(logo);
    const current = request.query.v === logoTag(logo);
    return reply.type(type).header('Cache-Control', current ? 'public, max-age=31536000, immutable' : 'no-cache').send(bytes);
  });
}
