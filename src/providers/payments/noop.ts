// PAYMENTS=off: no payment provider. Top-up is refused before any call (the core checks `name`);
// a call that still arrives fails like an upstream that is not there.
import { ProviderError } from '../errors.ts';
import type { PaymentProvider } from './types.ts';

const off = () => Promise.reject(new ProviderError('UPSTREAM_ERROR', 'Payments are turned off (PAYMENTS=off)', false));

export const noopPayments: PaymentProvider = {
  name: 'off',
  createCheckout: off,
  retrieve: off,
  refund: off,
};
