// The operator console at /admin: one page (console/src, Preact) that routes itself, and its two
// assets. It calls /admin/v1 with the staff session cookie; /admin/v1/… is never the page (an
// unknown API path answers the API's 404, or 405 when another method exists).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CLIENT_PAGE_HEADERS } from '../client-bundle.ts';
import { sendAsset } from '../static-asset.ts';
import { consoleBundle } from './assets.ts';

const API = /^\/admin\/v1(?:[/?]|$)/;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A page's catch-all route: not counted when a 405 lists the methods of a path (app.ts). */
    pageFallback?: boolean;
  }
}

export async function registerStaffConsole(app: FastifyInstance): Promise<void> {
  const quiet = { config: { rateLimit: false } };
  app.get('/assets/app.js', quiet, async (request, reply) => sendAsset(request, reply, (await consoleBundle()).js));
  app.get('/assets/app.css', quiet, async (request, reply) => sendAsset(request, reply, (await consoleBundle()).css));
  const servePage = async (request: FastifyRequest, reply: FastifyReply) => {
    if (API.test(request.url) || request.url.startsWith('/admin/assets/')) return reply.callNotFound();
    reply.headers(CLIENT_PAGE_HEADERS);
    return sendAsset(request, reply, (await consoleBundle()).html);
  };
  app.get('/', quiet, servePage);
  // Not the table of the API's methods: POST /admin/v1/unknown stays a 404, not a 405 naming GET.
  app.get('/*', { config: { rateLimit: false, pageFallback: true } }, servePage);
}
