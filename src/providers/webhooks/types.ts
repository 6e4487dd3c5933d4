// What sends a webhook delivery: one POST, answered with its status, within the timeouts. The HTTP
// driver (http.ts) is the real one; tests may plug in their own.

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookAnswer {
  status: number;
  /** The start of the answer's body, for the delivery log of a failed attempt. */
  excerpt: string;
}

/** A send that ended without an answer: refused (not a public address), timed out, connection failed. */
export class WebhookSendError extends Error {
  constructor(readonly kind: 'refused' | 'timeout' | 'connection', message: string) {
    super(message);
    this.name = 'WebhookSendError';
  }
}

export interface WebhookTransport {
  /** Resolves with the answer, whatever its status; rejects with WebhookSendError when there is none. */
  post(request: WebhookRequest): Promise<WebhookAnswer>;
  close(): void;
}
