// Registrar failures as the API's errors: a registry's refusal is the customer's input (422
// naming the field it is about), anything else an upstream failure (502 UPSTREAM_ERROR).
import { ProviderError } from '../../providers/errors.ts';
import { type Registrar, RegistrarError } from '../../providers/registrar/types.ts';
import { ApiError, invalid } from '../errors.ts';
import type { RunContext } from '../operations/runner.ts';

export interface RefusalFields {
  domain?: string;
  authCode?: string;
  years?: string;
  /** What a 'policy' refusal is about (e.g. whois_privacy). */
  policy?: string;
}

/** The registrar's failure as the API's; anything else (a bug, the database) unchanged. */
export function registrarFailure(e: unknown, name: string, fields: RefusalFields = {}): unknown {
  if (e instanceof RegistrarError && e.refusal) {
    const domain = fields.domain ?? 'domain';
    switch (e.refusal) {
      case 'unavailable': return invalid(domain, `${name} is not available: it is registered already`);
      case 'not_registered': return invalid(domain, `${name} is not registered at another registrar, so there is nothing to transfer (register it instead)`);
      case 'already_ours': return invalid(domain, `${name} is already registered with us`);
      case 'auth_code_invalid': return invalid(fields.authCode ?? 'auth_code', `is not the auth code of ${name}; ask its current registrar for the EPP code`);
      case 'period_invalid': return invalid(fields.years ?? 'years', `the registry refused the period: ${e.message}`);
      case 'policy': return invalid(fields.policy ?? e.field ?? domain, `the registry refused: ${e.message}`);
    }
  }
  if (e instanceof ProviderError) return new ApiError('UPSTREAM_ERROR', `The registrar failed: ${e.message}`);
  return e;
}

/** The worker's registrar; a worker wired without one fails the operation rather than retrying forever. */
export function registrarOf(rc: Pick<RunContext, 'registrar'>): Registrar {
  if (!rc.registrar) throw new ProviderError('UPSTREAM_ERROR', 'This worker has no registrar configured', false);
  return rc.registrar;
}
