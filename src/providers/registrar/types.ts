// The registrar: the upstream (EPP, RFC 5730–5733, or a reseller API) our domains live at. The
// Registrar interface and its drivers come with the domains work; the call names are fixed here
// first because the fault switch (src/core/providers/fault-switch.ts) validates against them.

/** Every Registrar method by name, one per EPP command or reseller-API call (the fault switch picks among them). */
export const REGISTRAR_CALLS = [
  'check', 'register', 'transfer', 'renew', 'info', 'setNameservers', 'setTransferLock', 'setWhoisPrivacy',
  'getAuthCode', 'refreshAuthCode', 'transferStatus',
] as const;

export type RegistrarCall = (typeof REGISTRAR_CALLS)[number];
