// The simulated registrar: the default Registrar. It behaves like a registry reached through EPP —
// every call takes `delayMs`, the registry lives in our database (sim_registry_*, shared by every
// process and surviving restarts), retried requests are answered from the record of the first,
// a transfer is approved by the losing registrar a few steps after it was requested, and the
// `registrar` fault switch makes it fail on demand.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../../db/connection.ts';
import { findRequest, insertRequest } from '../../../db/queries/sim.ts';
import {
  US, extendRegistryDomain, findPendingTransfer, findRegistryDomain, findRegistryDomainCreatedBy, finishTransfer,
  insertRegistryDomain, insertTransfer, isApprovalDue, renewalTooFar, lockRegistryDomain, lockTransferByToken, takeOverRegistryDomain, updateRegistryDomain,
} from '../../../db/queries/sim-registrar.ts';
import type { SimRegistryDomain, SimRegistryTransfer } from '../../../db/schema.ts';
import { consumeCheckFaultAndFindRegistryNames } from '../../../db/queries/sim-faults.ts';
import { failAs, obeyFault, sleep } from '../../simulated/fault.ts';
import { type Registrar, type RegistrarCall, RegistrarError, type RegistryDomain, type TransferStatus } from '../types.ts';

export interface SimulatedRegistrarOptions {
  db: Db;
  /** Wait of each call (SIM_DELAY_MS); 0 answers at once. */
  delayMs: number;
}

/** The losing registrar approves a transfer this many steps (SIM_DELAY_MS each) after the request. */
export const TRANSFER_APPROVAL_STEPS = 3;

export const SIMULATED_REGISTRAR_NAME = 'Hostcloud Registrar (simulated)';

/** EPP auth codes: 16 characters of letters, digits and symbols, as registries ask for. */
export function newAuthCode(): string {
  return `${randomBytes(12).toString('base64url')}#1`;
}

const roidOf = () => `SIM${randomBytes(6).toString('hex').toUpperCase()}-HC`;

function domainOf(row: SimRegistryDomain): RegistryDomain {
  return {
    name: row.name, ref: row.roid, createdAt: row.created_at, expiresAt: row.expires_at,
    nameservers: row.nameservers, transferLock: row.transfer_lock, whoisPrivacy: row.whois_privacy,
  };
}

/** Thrown inside a transaction to undo it when a concurrent twin already recorded the same request. */
class Replay extends Error {}

export function createSimulatedRegistrar({ db, delayMs }: SimulatedRegistrarOptions): Registrar {
  const call = async (name: RegistrarCall) => {
    await obeyFault(db, 'registrar', name, delayMs);
    await sleep(delayMs);
  };

  /** One of our names; a name we do not sponsor cannot be changed through us. */
  const ours = async (trx: Db, name: string, lock = false): Promise<SimRegistryDomain> => {
    const row = lock ? await lockRegistryDomain(trx, name) : await findRegistryDomain(trx, name);
    if (!row) throw new RegistrarError(`${name} is not registered`, { refusal: 'not_registered' });
    if (row.sponsor !== US) throw new RegistrarError(`${name} is sponsored by another registrar`, { refusal: 'policy' });
    return row;
  };

  /** `work` once per (verb, token): a repeat gets the first result; the work and its record commit together. */
  const once = async <R>(verb: string, token: string, work: (trx: Db) => Promise<R>): Promise<R> => {
    const key = `registrar:${verb}:${token}`;
    const done = await findRequest(db, key);
    if (done) return done.result as R;
    try {
      return await db.transaction().execute(async (trx) => {
        const result = await work(trx);
        if (!(await insertRequest(trx, key, result))) throw new Replay();
        return result;
      });
    } catch (e) {
      if (!(e instanceof Replay)) throw e;
      return (await findRequest(db, key))!.result as R;
    }
  };

  /** Completes a pending transfer whose approval is due, under its row lock. */
  const settle = (token: string): Promise<SimRegistryTransfer | undefined> => db.transaction().execute(async (trx) => {
    const transfer = await lockTransferByToken(trx, token);
    if (!transfer || transfer.state !== 'pending' || !(await isApprovalDue(trx, transfer.id))) return transfer;
    const held = await lockRegistryDomain(trx, transfer.name);
    if (!held || held.sponsor !== transfer.from_sponsor) {
      return finishTransfer(trx, transfer.id, 'rejected', 'The losing registrar no longer sponsors the name');
    }
    await takeOverRegistryDomain(trx, transfer.name, transfer.years, newAuthCode());
    return finishTransfer(trx, transfer.id, 'completed', null);
  });

  const statusOf = async (transfer: SimRegistryTransfer): Promise<TransferStatus> => ({
    state: transfer.state,
    domain: transfer.state === 'completed' ? domainOf((await findRegistryDomain(db, transfer.name))!) : null,
    reason: transfer.reason,
  });

  return {
    name: SIMULATED_REGISTRAR_NAME,

    async check(names) {
      // The fault switch and the registry in one statement (a registration's hot path); a fault,
      // when set, still fails the call before it answers.
      const { mode, taken } = await consumeCheckFaultAndFindRegistryNames(db, names);
      await failAs('registrar', 'check', mode, delayMs);
      await sleep(delayMs);
      const held = new Set(taken);
      return names.map((name) => ({ name, available: !held.has(name) }));
    },

    async register(req) {
      await call('register');
      const made = await insertRegistryDomain(db, {
        name: req.name, sponsor: US, roid: roidOf(), auth_code: newAuthCode(), nameservers: req.nameservers,
        transfer_lock: req.transferLock, whois_privacy: req.whoisPrivacy, created_by: req.token, years: req.years,
      });
      if (made) return domainOf(made);
      // Taken: by this very request before (a retry after a lost answer), or by someone else.
      const mine = await findRegistryDomainCreatedBy(db, req.token);
      if (mine) return domainOf(mine);
      throw new RegistrarError(`${req.name} is not available`, { refusal: 'unavailable' });
    },

    async transfer(req) {
      await call('transfer');
      const existing = await settle(req.token);
      if (existing) return statusOf(existing);
      const created = await db.transaction().execute(async (trx) => {
        const held = await lockRegistryDomain(trx, req.name);
        if (!held) throw new RegistrarError(`${req.name} is not registered at any registrar`, { refusal: 'not_registered' });
        if (held.sponsor === US) throw new RegistrarError(`${req.name} is already registered with us`, { refusal: 'already_ours' });
        if (held.auth_code !== req.authCode) throw new RegistrarError(`The auth code of ${req.name} is wrong`, { refusal: 'auth_code_invalid' });
        // A concurrent request of the same token is serialised by the row lock above.
        const again = await lockTransferByToken(trx, req.token);
        if (again) return again;
        if (await findPendingTransfer(trx, req.name)) throw new RegistrarError(`A transfer of ${req.name} is already pending`, { refusal: 'unavailable' });
        return insertTransfer(trx, { token: req.token, name: req.name, years: req.years, from_sponsor: held.sponsor }, TRANSFER_APPROVAL_STEPS * delayMs);
      });
      return statusOf(created);
    },

    async transferStatus(_name, token) {
      await call('transferStatus');
      const transfer = await settle(token);
      if (!transfer) throw new RegistrarError(`No transfer was requested with token ${token}`, { retryable: false });
      return statusOf(transfer);
    },

    async renew(req) {
      await call('renew');
      return once('renew', req.token, async (trx) => {
        const row = await ours(trx, req.name, true);
        // EPP's curExpDate: a renewal must name the expiry it extends, so none is applied twice.
        if (row.expires_at.getTime() !== req.currentExpiresAt.getTime()) {
          throw new RegistrarError(`${req.name} expires ${row.expires_at.toISOString()}, not ${req.currentExpiresAt.toISOString()}`, { refusal: 'period_invalid' });
        }
        if (await renewalTooFar(trx, req.name, req.years)) throw new RegistrarError(`${req.name} cannot be registered for more than 10 years ahead`, { refusal: 'period_invalid' });
        const renewed = await extendRegistryDomain(trx, req.name, req.years);
        return { expiresAt: renewed.expires_at.toISOString() };
      }).then((r) => ({ expiresAt: new Date(r.expiresAt) }));
    },

    async info(name, authCode) {
      await call('info');
      const row = await findRegistryDomain(db, name);
      if (!row) throw new RegistrarError(`${name} is not registered at any registrar`, { refusal: 'not_registered' });
      if (authCode === undefined) return domainOf(await ours(db, name));
      if (row.sponsor === US) throw new RegistrarError(`${name} is already registered with us`, { refusal: 'already_ours' });
      if (row.auth_code !== authCode) throw new RegistrarError(`The auth code of ${name} is wrong`, { refusal: 'auth_code_invalid' });
      return domainOf(row);
    },

    async setNameservers(name, nameservers) {
      await call('setNameservers');
      await ours(db, name);
      await updateRegistryDomain(db, name, { nameservers });
    },

    async setTransferLock(name, locked) {
      await call('setTransferLock');
      await ours(db, name);
      await updateRegistryDomain(db, name, { transfer_lock: locked });
    },

    async setWhoisPrivacy(name, enabled) {
      await call('setWhoisPrivacy');
      await ours(db, name);
      await updateRegistryDomain(db, name, { whois_privacy: enabled });
    },

    async getAuthCode(name) {
      await call('getAuthCode');
      return (await ours(db, name)).auth_code;
    },

    async refreshAuthCode(name, token) {
      await call('refreshAuthCode');
      return once('refresh-auth-code', token, async (trx) => {
        await ours(trx, name, true);
        const code = newAuthCode();
        await updateRegistryDomain(trx, name, { auth_code: code });
        return code;
      });
    },
  };
}
