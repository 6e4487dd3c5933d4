// Documents that do not change while the process runs (the OpenAPI documents, the Redoc bundle:
// 0.2 to 1.1 MB) are sent with a validator and compressed. Each encoding is made once, the first
// time a client asks for it (off the event loop), and kept; a client that has the document
// already gets 304. Which encoding a client accepts is decided by @fastify/accept-negotiator
// (q-values, `*`, `identity;q=0`), and whether its copy is fresh by `fresh` (If-None-Match lists,
// weak tags), rather than by parsing either header here.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';

type Encoding = 'br' | 'gzip';

/** Scripts change only with an upgrade: kept an hour, then revalidated. */
export const SCRIPT_CACHE = 'public, max-age=3600';
/** The OpenAPI documents: kept, but revalidated on every use (a 304 once fetched). */
export const DOCUMENT_CACHE = 'public, no-cache';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

const COMPRESS: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  gzip: (body) => gzip(body, { level: 9 }),
  // Quality 5: within a few percent of the smallest output, at a twentieth of quality 11's time.
  br: (body) => brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
};

// Preference on a tie: brotli is the smaller.
const encodings = new Negotiator<Encoding | 'identity'>({ supportedValues: ['br', 'gzip', 'identity'] });

export interface StaticAsset {
  type: string;
  cacheControl: string;
  /** Weak: the same tag names the document in every encoding. */
  etag: string;
  body: Buffer;
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
}

export function staticAsset(body: string | Buffer, type: string, cacheControl: string): StaticAsset {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const etag = `W/"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
  return { type, cacheControl, etag, body: bytes, encoded: {} };
}

/** The asset as this request should get it: 304 when its copy is current, else compressed if it accepts that. */
export async function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: StaticAsset): Promise<FastifyReply> {
  reply.type(asset.type)
    .header('ETag', asset.etag)
    .header('Cache-Control', asset.cacheControl)
    .header('Vary', 'Accept-Encoding')
    .header('X-Content-Type-Options', 'nosniff');
  if (fresh(request.headers, { etag: asset.etag })) return reply.code(304).send();
  const accepted = request.headers['accept-encoding'];
  const encoding = typeof accepted === 'string' && accepted !== '' ? encodings.negotiate(accepted) : null;
  if (encoding === 'br' || encoding === 'gzip') {
    const compressed = await (asset.encoded[encoding] ??= COMPRESS[encoding](asset.body));
    return reply.header('Content-Encoding', encoding).send(compressed);
  }
  return reply.send(asset.body);
}
