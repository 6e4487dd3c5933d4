// A webhook's URL, checked when it is set (create, update) — and its addresses again at every
// delivery, against the address actually connected to (providers/webhooks/http.ts), so a name
// that resolves elsewhere later (DNS rebinding) gains nothing. https only and public addresses only,
// unless the operator allows plain http (WEBHOOK_ALLOW_HTTP) or private targets
// (WEBHOOK_ALLOW_PRIVATE) — development and tests.
import { invalid } from '../errors.ts';
import { forbiddenAddress, hostAddress, isIpLiteral } from './addresses.ts';

export const URL_MAX = 2048;

export interface UrlPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
  /** Every address a host name resolves to (A and AAAA); rejects when it does not resolve. */
  lookup(hostname: string): Promise<string[]>;
}

const bad = (message: string) => invalid('url', message);

/** The URL as it will be called (WHATWG-normalised, without a fragment), or 422 naming `url`. */
export async function checkWebhookUrl(raw: string, policy: UrlPolicy): Promise<string> {
  if (raw.length > URL_MAX) throw bad(`must be at most ${URL_MAX} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad('must be an absolute URL, such as https://example.com/hooks/hostcloud');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw bad(policy.allowHttp ? 'must be an http or https URL' : 'must be an https URL');
  }
  if (url.username || url.password) throw bad('must not carry a user name or password; verify the webhook-signature header instead');
  url.hash = '';
  if (!policy.allowPrivate) {
    const host = url.hostname;
    const literal = isIpLiteral(host);
    const addresses = literal ? [hostAddress(host)] : await policy.lookup(host).catch(() => [] as string[]);
    if (addresses.length === 0) throw bad(`the host ${host} does not resolve`);
    for (const a of addresses) {
      const why = forbiddenAddress(a);
      if (why) throw bad(`must point to a public address; ${literal ? `${host} is` : `${host} resolves to ${a},`} ${why}`);
    }
  }
  return url.href;
}
