// Reading domains, and availability. A name is unavailable while a live domain of any account
// holds it (our table), or while the registry holds it (registered with us or elsewhere).
import { type DomainRow, findAccountDomain, findLiveNames, listDomainsPage } from '../../db/queries/domains.ts';
import type { DomainStatus } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { resolveDomainName } from './names.ts';
import { registrarFailure } from './upstream.ts';

export async function listDomains(ctx: Ctx, filter: { status?: DomainStatus }, page: PageRequest): Promise<Paged<DomainRow>> {
  const { rows, total } = await listDomainsPage(ctx.db, ctx.accountId, filter.status, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

/** The account's domain, or RESOURCE_NOT_FOUND (another account's id included). */
export async function getDomain(ctx: Ctx, id: string, db: Db = ctx.db): Promise<DomainRow> {
  const row = await findAccountDomain(db, ctx.accountId, id);
  if (!row) throw notFound('Domain');
  return row;
}

/** Which of `names` the registry would register now (one call; UPSTREAM_ERROR when it fails). */
export async function registryAvailability(ctx: Ctx, names: string[]): Promise<Map<string, boolean>> {
  if (names.length === 0) return new Map();
  try {
    const answers = await ctx.registrar.check(names);
    return new Map(answers.map((a) => [a.name, a.available]));
  } catch (e) {
    throw registrarFailure(e, names.join(', '));
  }
}

export interface Availability {
  domain: string;
  tld: string;
  available: boolean;
}

/** GET /domains/check: free; the name normalised (IDN → punycode). */
export async function checkAvailability(ctx: Ctx, input: string): Promise<Availability> {
  const { domain } = await resolveDomainName(ctx.db, input);
  const held = await findLiveNames(ctx.db, [domain.name]);
  const available = held.length === 0 && (await registryAvailability(ctx, [domain.name])).get(domain.name) === true;
  return { domain: domain.name, tld: domain.tld, available };
}
