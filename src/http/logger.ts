// JSON logs (pino). Secrets never reach a log line: auth headers are redacted and so is any
// key-looking query parameter (a client that still sends v1's ?api_key= must not leak it here).
import pino, { type DestinationStream, type Logger } from 'pino';

export function redactUrl(url: string): string {
  return url.replace(/([?&](?:api_key|apikey|key|token)=)[^&#]*/gi, '$1[REDACTED]');
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization'], censor: '[REDACTED]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), remote_address: req.ip }),
      err: pino.stdSerializers.err,
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
