// The sandbox's registrar: no I/O at all, an immediate plausible answer, never an error. Every
// name is available and every auth code is right: a sandbox cannot know what a real registry
// holds, and its requests change nothing anyway.
import { randomBytes } from 'node:crypto';
import type { Registrar, RegistryDomain } from './types.ts';

const YEAR_MS = 365.25 * 86_400_000;

function plausible(name: string, years: number, from = new Date()): RegistryDomain {
  return {
    name, ref: `NOOP-${randomBytes(4).toString('hex').toUpperCase()}`, createdAt: new Date(),
    expiresAt: new Date(from.getTime() + years * YEAR_MS), nameservers: [], transferLock: true, whoisPrivacy: false,
  };
}

export const noopRegistrar: Registrar = {
  name: 'sandbox',
  async check(names) {
    return names.map((name) => ({ name, available: true }));
  },
  async register(req) {
    return { ...plausible(req.name, req.years), nameservers: req.nameservers, transferLock: req.transferLock, whoisPrivacy: req.whoisPrivacy };
  },
  async transfer() {
    return { state: 'pending', domain: null, reason: null };
  },
  async transferStatus(name) {
    return { state: 'completed', domain: plausible(name, 1), reason: null };
  },
  async renew(req) {
    return { expiresAt: new Date(req.currentExpiresAt.getTime() + req.years * YEAR_MS) };
  },
  async info(name) {
    return plausible(name, 1);
  },
  async setNameservers() {},
  async setTransferLock() {},
  async setWhoisPrivacy() {},
  async getAuthCode() {
    return `${randomBytes(12).toString('base64url')}#1`;
  },
  async refreshAuthCode() {
    return `${randomBytes(12).toString('base64url')}#1`;
  },
};
