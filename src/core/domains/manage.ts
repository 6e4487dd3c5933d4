// Free changes of an active domain: nameservers, transfer lock, WHOIS privacy, and its EPP auth
// code. The registrar is asked first (outside any transaction); only what it accepted is stored.
// Each change is a plain "set to": repeating it is harmless, so its request token is fresh.
import { type DomainRow, updateDomain } from '../../db/queries/domains.ts';
import type { Domain } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { getDomain } from './read.ts';
import { changeToken, checkNameservers, checkWhoisPrivacy } from './rules.ts';
import { registrarFailure } from './upstream.ts';

/** The account's domain, active: a pending, transferring, expired or cancelled one is 409. */
export async function requireActiveDomain(ctx: Ctx, id: string): Promise<DomainRow> {
  const domain = await getDomain(ctx, id);
  if (domain.status !== 'active') {
    throw new ApiError('STATE_CONFLICT', `Domain ${domain.name} is ${domain.status}; this change needs an active domain`);
  }
  return domain;
}

async function ask<T>(name: string, call: () => Promise<T>, policyField?: string): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw registrarFailure(e, name, { policy: policyField });
  }
}

async function stored(ctx: Ctx, domain: DomainRow, patch: Parameters<typeof updateDomain>[2]): Promise<DomainRow> {
  const row: Domain | undefined = await updateDomain(ctx.db, domain.id, patch);
  return { ...row!, price: domain.price };
}

export async function getNameservers(ctx: Ctx, id: string): Promise<DomainRow> {
  return getDomain(ctx, id);
}

/** PUT nameservers: the full set, 2–13 distinct host names. */
export async function setNameservers(ctx: Ctx, id: string, input: string[]): Promise<DomainRow> {
  const nameservers = checkNameservers(input);
  const domain = await requireActiveDomain(ctx, id);
  await ask(domain.name, () => ctx.registrar.setNameservers(domain.name, nameservers, changeToken('ns')), 'nameservers');
  return stored(ctx, domain, { nameservers });
}

export async function setTransferLock(ctx: Ctx, id: string, locked: boolean): Promise<DomainRow> {
  const domain = await requireActiveDomain(ctx, id);
  await ask(domain.name, () => ctx.registrar.setTransferLock(domain.name, locked, changeToken('lock')), 'enabled');
  return stored(ctx, domain, { transfer_lock: locked });
}

/** WHOIS privacy: free, on TLDs that support it (else 422 naming whois_privacy). */
export async function setWhoisPrivacy(ctx: Ctx, id: string, enabled: boolean): Promise<DomainRow> {
  const domain = await getDomain(ctx, id);
  checkWhoisPrivacy(enabled, domain.price);
  await requireActiveDomain(ctx, id);
  await ask(domain.name, () => ctx.registrar.setWhoisPrivacy(domain.name, enabled, changeToken('privacy')), 'whois_privacy');
  return stored(ctx, domain, { whois_privacy: enabled });
}

/**
 * The EPP auth code a gaining registrar asks for: the one we hold, or read from the registrar
 * (and kept). Reading never changes the code at the registry.
 */
export async function getAuthCode(ctx: Ctx, id: string): Promise<{ domain: DomainRow; authCode: string }> {
  const domain = await requireActiveDomain(ctx, id);
  if (domain.auth_code) return { domain, authCode: domain.auth_code };
  const authCode = await ask(domain.name, () => ctx.registrar.getAuthCode(domain.name));
  return { domain: await stored(ctx, domain, { auth_code: authCode }), authCode };
}

/** A new EPP auth code, issued by the registrar and kept: the old one stops working. */
export async function refreshAuthCode(ctx: Ctx, id: string): Promise<{ domain: DomainRow; authCode: string }> {
  const domain = await requireActiveDomain(ctx, id);
  const authCode = await ask(domain.name, () => ctx.registrar.refreshAuthCode(domain.name, changeToken('auth')));
  return { domain: await stored(ctx, domain, { auth_code: authCode }), authCode };
}
