// The hosting panel: the upstream (cPanel WHM, Plesk) our web-hosting accounts live on. The
// HostingPanel interface and its drivers come with the web-hosting work; the call names are fixed
// here first because the fault switch (src/core/providers/fault-switch.ts) validates against them.

/** Every HostingPanel method by name, one per panel API call (the fault switch picks among them). */
export const HOSTING_CALLS = ['createAccount', 'suspend', 'unsuspend', 'terminate', 'diskUsage', 'ssoUrl'] as const;

export type HostingCall = (typeof HOSTING_CALLS)[number];
