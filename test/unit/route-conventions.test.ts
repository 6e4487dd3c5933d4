// The route conventions every family applies (route-conventions.ts), on a bare Fastify app: the
// codes a route's config implies are declared for it, a route without errorResponses() or with an
// inlined component does not start, an all-optional body may be omitted, and an undeclared error
// is reported. And the error catalog's Markdown never passes raw HTML through.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { ApiError } from '../../src/core/errors.ts';
import { inline } from '../../src/http/docs/errors-page.ts';
import { sendError } from '../../src/http/errors.ts';
import { type UndocumentedError, applyRouteConventions, checkDocumentedErrors } from '../../src/http/route-conventions.ts';
import { Envelope, MoneySchema, components, errorResponses } from '../../src/http/schemas.ts';
import '../../src/http/auth.ts';

/** Each route's declared codes, as the conventions left them (for HEAD routes too). */
const declared = new Map<string, unknown>();

async function appWith(routes: (app: FastifyInstance) => void, report: (e: UndocumentedError) => void = () => {}) {
  const app = Fastify();
  for (const schema of components()) app.addSchema(schema);
  app.setErrorHandler((err, request, reply) => sendError('http://api.test', err, request, reply));
  await app.register(async (scope) => {
    scope.addHook('onRoute', applyRouteConventions);
    scope.addHook('onRoute', (route) => {
      declared.set(`${route.method} ${route.url}`, route.config?.errorCodes);
    });
    checkDocumentedErrors(scope, report);
    routes(scope);
  });
  await app.ready();
  return app;
}

test('the codes a route answers because of its config are added to those it names', async () => {
  const app = await appWith((s) => {
    s.post('/customer', { config: { area: 'servers' }, schema: { response: { 200: Type.Object({}), ...errorResponses('STATE_CONFLICT') } } }, async () => ({}));
    s.get('/public', { config: { auth: 'none' }, schema: { response: { 200: Type.Object({}), ...errorResponses() } } }, async () => ({}));
    s.get('/admin', { config: { auth: 'admin', rateLimit: false }, schema: { response: { 200: Type.Object({}), ...errorResponses() } } }, async () => ({}));
  });
  const codes = (url: string, method = 'GET') => declared.get(`${method} ${url}`);
  assert.deepEqual(codes('/customer', 'POST'), {
    400: ['REQUEST_MALFORMED'], 401: ['AUTH_INVALID', 'AUTH_REQUIRED'], 403: ['ACCOUNT_INACTIVE', 'AUTH_IP_NOT_ALLOWED', 'AUTH_SCOPE_INSUFFICIENT', 'CSRF_TOKEN_INVALID'],
    409: ['STATE_CONFLICT'], 413: ['PAYLOAD_TOO_LARGE'], 415: ['UNSUPPORTED_MEDIA_TYPE'], 422: ['VALIDATION_FAILED'], 429: ['RATE_LIMITED'],
    500: ['INTERNAL_ERROR'], 503: ['SERVICE_UNAVAILABLE'],
  });
  assert.deepEqual(codes('/public'), { 400: ['REQUEST_MALFORMED'], 422: ['VALIDATION_FAILED'], 429: ['RATE_LIMITED'], 500: ['INTERNAL_ERROR'], 503: ['SERVICE_UNAVAILABLE'] });
  assert.deepEqual(codes('/admin'), {
    400: ['REQUEST_MALFORMED'], 401: ['AUTH_INVALID', 'AUTH_REQUIRED'], 403: ['AUTH_IP_NOT_ALLOWED', 'AUTH_SCOPE_INSUFFICIENT'], 422: ['VALIDATION_FAILED'], 429: ['RATE_LIMITED'], 500: ['INTERNAL_ERROR'], 503: ['SERVICE_UNAVAILABLE'],
  });
  await app.close();
});

test('a route without errorResponses(), or with a component inlined, does not start', async () => {
  await assert.rejects(
    appWith((s) => s.get('/x', { schema: { response: { 200: Type.Object({}) } } }, async () => ({}))),
    /GET \/x: its response schemas need \.\.\.errorResponses/,
  );
  await assert.rejects(
    appWith((s) => s.get('/y', { schema: { response: { 200: Type.Object({ price: MoneySchema }), ...errorResponses() } } }, async () => ({}))),
    /the component Money is inlined; use ref\(MoneySchema\)/,
  );
  // Through Envelope it is a reference, as it should be.
  const app = await appWith((s) => s.get('/z', { schema: { response: { 200: Envelope(MoneySchema), ...errorResponses() } } }, async () => ({})));
  await app.close();
});

test('a body whose fields are all optional may be left out; one with a required field may not', async () => {
  const seen: unknown[] = [];
  const app = await appWith((s) => {
    s.post('/optional', { schema: { body: Type.Object({ a: Type.Optional(Type.String()) }), response: { 200: Type.Object({}), ...errorResponses() } } }, async (r) => {
      seen.push(r.body);
      return {};
    });
    s.post('/required', { schema: { body: Type.Object({ a: Type.String() }), response: { 200: Type.Object({}), ...errorResponses() } } }, async () => ({}));
  });
  assert.equal((await app.inject({ method: 'POST', url: '/optional' })).statusCode, 200);
  assert.deepEqual(seen, [{}]);
  const refused = await app.inject({ method: 'POST', url: '/required' });
  assert.equal(refused.statusCode, 422);
  assert.equal(refused.json().error.code, 'VALIDATION_FAILED');
  await app.close();
});

test('an error response whose code the route does not declare for its status is reported', async () => {
  const reported: UndocumentedError[] = [];
  const app = await appWith((s) => {
    s.get('/declared', { schema: { response: { 200: Type.Object({}), ...errorResponses('STATE_CONFLICT') } } }, async () => {
      throw new ApiError('STATE_CONFLICT', 'busy');
    });
    s.get('/undeclared', { schema: { response: { 200: Type.Object({}), ...errorResponses('RESOURCE_NOT_FOUND') } } }, async () => {
      throw new ApiError('STATE_CONFLICT', 'busy');
    });
  }, (e) => reported.push(e));
  assert.equal((await app.inject({ method: 'GET', url: '/declared' })).statusCode, 409);
  const res = await app.inject({ method: 'GET', url: '/undeclared' });
  assert.equal(res.statusCode, 409);
  assert.equal(res.json().error.code, 'STATE_CONFLICT', 'the answer itself is unchanged');
  assert.deepEqual(reported, [{ method: 'GET', route: '/undeclared', status: 409, code: 'STATE_CONFLICT' }]);
  await app.close();
});

test('the error catalog renders Markdown and escapes raw HTML', async () => {
  assert.equal(await inline('Send `Authorization: Bearer <API_KEY>`.'), 'Send <code>Authorization: Bearer &lt;API_KEY&gt;</code>.');
  assert.equal(await inline('a <img src=x onerror=alert(1)> b'), 'a &lt;img src=x onerror=alert(1)&gt; b');
  assert.equal(await inline('**bold** and [link](../docs)'), '<strong>bold</strong> and <a href="../docs">link</a>');
});
