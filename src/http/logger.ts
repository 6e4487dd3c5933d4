// Logs (pino): JSON lines, or a readable colourised form for a person at a terminal (pino-pretty,
// in-process and synchronous, so no line is lost at exit). Secrets never reach a log line: auth headers are redacted and so is any
// key-looking query parameter (a client that still sends v1's ?api_key= must not leak it here).
import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';
import type Pretty from 'pino-pretty';

export type LogFormat = 'json' | 'pretty' | 'auto';

/** `auto`: pretty when stdout is a terminal, JSON otherwise (a file, a pipe, a log collector). */
export function usePretty(format: LogFormat, isTty = process.stdout.isTTY === true): boolean {
  return format === 'pretty' || (format === 'auto' && isTty);
}

export function redactUrl(url: string): string {
  return url.replace(/([?&](?:api_key|apikey|key|token)=)[^&#]*/gi, '$1[REDACTED]');
}

export function createLogger(level: string, destination?: DestinationStream, format: LogFormat = 'json'): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization'], censor: '[REDACTED]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), remote_address: req.ip }),
      err: pino.stdSerializers.err,
    },
  };
  if (usePretty(format)) {
    const colorize = !destination && process.stdout.isTTY === true;
    // Loaded only for a pretty log: JSON lines need none of it.
    const pretty = createRequire(import.meta.url)('pino-pretty') as typeof Pretty;
    return pino(options, pretty({ sync: true, colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', destination: destination ?? 1 }));
  }
  return destination ? pino(options, destination) : pino(options);
}
