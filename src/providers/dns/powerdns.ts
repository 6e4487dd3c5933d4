// PowerDNS Authoritative (4.5 and later) through its HTTP API (`api=yes`, `webserver=yes`).
// Zones are made `Native` (served from PowerDNS's own backend, no AXFR between primaries) with
// SOA-EDIT-API off: the SOA we send, serial included, is the one served, since our database
// counts the serial. Each rrset is sent with changetype REPLACE (or DELETE when empty): setting
// state, never adding to it, so a repeated call changes nothing. A refused connection, a timeout
// or a 5xx is a retryable ProviderError; the pusher tries again later.
import { ProviderError } from '../errors.ts';
import { type DnsProvider, type DnsRrset, DnsZoneMissing } from './types.ts';

export interface PowerDnsOptions {
  apiUrl: string;
  apiKey: string;
  serverId: string;
  /** Each request is answered within this or fails. Default 5000. */
  timeoutMs?: number;
}

const abs = (name: string) => (name.endsWith('.') ? name : `${name}.`);

/** PowerDNS's zone id: the name with its dot; `/` would need its =2F escape, but our names have none. */
const zoneId = (zone: string) => encodeURIComponent(abs(zone));

interface PdnsRrset {
  name: string;
  type: string;
  ttl?: number;
  changetype?: 'REPLACE' | 'DELETE';
  records?: { content: string; disabled: boolean }[];
}

function wire(r: DnsRrset, changetype?: 'REPLACE' | 'DELETE'): PdnsRrset {
  if (r.contents.length === 0) return { name: abs(r.name), type: r.type, changetype: 'DELETE' };
  return { name: abs(r.name), type: r.type, ttl: r.ttl, ...(changetype ? { changetype } : {}), records: r.contents.map((content) => ({ content, disabled: false })) };
}

export function createPowerDns(opts: PowerDnsOptions): DnsProvider {
  const base = `${opts.apiUrl.replace(/\/+$/, '')}/api/v1/servers/${encodeURIComponent(opts.serverId)}`;
  const timeoutMs = opts.timeoutMs ?? 5000;

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { 'X-API-Key': opts.apiKey, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const why = (e as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : ((e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message);
      throw new ProviderError('UPSTREAM_ERROR', `PowerDNS ${method} ${path}: ${why}`);
    }
    const text = await res.text().catch(() => '');
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch { /* a body that is not JSON: its text is the message */ }
    return { status: res.status, json: json ?? text };
  }

  function failure(method: string, path: string, r: { status: number; json: unknown }): ProviderError {
    const said = (r.json as { error?: unknown } | null)?.error;
    const message = `PowerDNS ${method} ${path} answered ${r.status}${typeof said === 'string' ? `: ${said.slice(0, 300)}` : ''}`;
    // 401/403: a wrong key or address; 422: our data refused. Retrying is still right: the operator
    // fixes the setting (or we fix the data) and the outbox row goes through then.
    return new ProviderError('UPSTREAM_ERROR', message, true);
  }

  async function patch(zone: string, rrsets: PdnsRrset[]): Promise<void> {
    if (rrsets.length === 0) return;
    const path = `/zones/${zoneId(zone)}`;
    const r = await call('PATCH', path, { rrsets });
    if (r.status === 404) throw new DnsZoneMissing(zone);
    if (r.status !== 204 && r.status !== 200) throw failure('PATCH', path, r);
  }

  return {
    name: 'powerdns',

    async putZone(zone, rrsets) {
      const create = await call('POST', '/zones', {
        name: abs(zone), kind: 'Native', nameservers: [], soa_edit_api: '', rrsets: rrsets.filter((r) => r.contents.length > 0).map((r) => wire(r)),
      });
      if (create.status === 201) return;
      if (create.status !== 409) throw failure('POST', '/zones', create);
      // It exists: make it ours exactly — replace every rrset we hold, delete the ones we do not.
      const path = `/zones/${zoneId(zone)}`;
      const current = await call('GET', path);
      if (current.status !== 200) throw failure('GET', path, current);
      const held = new Set(rrsets.map((r) => `${abs(r.name)} ${r.type}`));
      const extra = ((current.json as { rrsets?: PdnsRrset[] }).rrsets ?? [])
        .filter((r) => !held.has(`${r.name} ${r.type}`))
        .map((r) => ({ name: r.name, type: r.type, changetype: 'DELETE' as const }));
      await patch(zone, [...rrsets.map((r) => wire(r, 'REPLACE')), ...extra]);
    },

    async patchZone(zone, rrsets) {
      await patch(zone, rrsets.map((r) => wire(r, 'REPLACE')));
    },

    async deleteZone(zone) {
      const path = `/zones/${zoneId(zone)}`;
      const r = await call('DELETE', path);
      if (r.status !== 204 && r.status !== 404) throw failure('DELETE', path, r);
    },
  };
}
