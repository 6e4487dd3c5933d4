// REGISTRAR_DRIVER=off: an installation that sells no domains. Every call fails (not retryable),
// so an order that slips through is refunded and the API answers 502 naming the setting.
import { type Registrar, RegistrarError } from './types.ts';

const refuse = async (): Promise<never> => {
  throw new RegistrarError('No registrar is configured (REGISTRAR_DRIVER=off)', { retryable: false });
};

export const offRegistrar: Registrar = {
  name: 'off',
  check: refuse, register: refuse, transfer: refuse, transferStatus: refuse, renew: refuse, info: refuse,
  setNameservers: refuse, setTransferLock: refuse, setWhoisPrivacy: refuse, getAuthCode: refuse, refreshAuthCode: refuse,
};
