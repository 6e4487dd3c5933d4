// The operator's controls of the simulated registrar (beside the simulators' fault switch, so that the
// registrar's folder imports nothing of the core): names "registered at another registrar",
// with the auth code a customer needs to transfer them in, and the registry's list (its fault
// switch is the shared one, src/providers/simulated/fault-switch.ts). Rules here; storage in
// src/db/queries/sim-registrar.ts; the admin API and CLI adapt.
import { randomBytes } from 'node:crypto';
import { US, findRegistryDomain, insertRegistryDomain, listRegistryPage } from '../../db/queries/sim-registrar.ts';
import type { SimRegistryDomain } from '../../db/schema.ts';
import { resolveDomainName } from '../../core/domains/names.ts';
import { checkNameservers } from '../../core/domains/rules.ts';
import { ApiError, invalid } from '../../core/errors.ts';
import { type PageRequest, type Paged, offsetOf } from '../../core/pagination.ts';
import type { Db } from '../../core/types.ts';
import { inTransaction, setCompanionTarget } from '../../db/transaction.ts';

export const OTHER_REGISTRAR = 'Other Registrar Inc.';
const OTHER_NAMESERVERS = ['ns1.other-registrar.example', 'ns2.other-registrar.example'];
/** EPP auth codes: registries ask for 6 to 32 printable characters. */
const AUTH_CODE = /^[\x21-\x7e]{6,32}$/;

export interface RegistryNameInput {
  domain: string;
  auth_code: string;
  /** RFC 3339; default a year from now. Must lie in the future. */
  expires_at?: string;
  registrar?: string;
  nameservers?: string[];
}

export async function addRegistryName(db: Db, input: RegistryNameInput, now: Date): Promise<SimRegistryDomain> {
  const { domain } = await resolveDomainName(db, input.domain);
  if (!AUTH_CODE.test(input.auth_code)) throw invalid('auth_code', 'must be 6 to 32 printable ASCII characters without spaces');
  const expiresAt = input.expires_at === undefined ? new Date(now.getTime() + 365 * 86_400_000) : new Date(input.expires_at);
  if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= now.getTime()) throw invalid('expires_at', 'must be a time in the future, such as 2027-01-15T00:00:00Z');
  const sponsor = input.registrar?.trim() || OTHER_REGISTRAR;
  if (sponsor.toLowerCase() === US) throw invalid('registrar', `"${US}" names this installation; give the other registrar's name`);
  const nameservers = input.nameservers ? checkNameservers(input.nameservers) : OTHER_NAMESERVERS;
  return inTransaction(db, async (trx) => {
    const added = await insertRegistryDomain(trx, {
      name: domain.name, sponsor, roid: `SIM${randomBytes(6).toString('hex').toUpperCase()}-EXT`, auth_code: input.auth_code,
      nameservers, transfer_lock: false, whois_privacy: false, created_by: null, expires_at: expiresAt,
    });
    if (added) {
      setCompanionTarget('registry_domain', added.name);
      return added;
    }
    // The refusal throws inside: an admin write's audit row must not commit with it.
    const held = await findRegistryDomain(trx, domain.name);
    throw new ApiError('STATE_CONFLICT', `${domain.name} is already in the registry (${held?.sponsor === US ? 'registered with us' : `at ${held?.sponsor}`})`);
  });
}

/** The registry's names; `sponsor` 'us' for ours, 'other' for other registrars'. */
export async function listRegistryNames(db: Db, sponsor: 'us' | 'other' | undefined, page: PageRequest): Promise<Paged<SimRegistryDomain>> {
  const { rows, total } = await listRegistryPage(db, sponsor === undefined ? undefined : sponsor === 'us' ? US : 'other', page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}
