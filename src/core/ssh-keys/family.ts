// The SSH keys family: public keys installed on new machines (see src/core/family.ts).
import type { FamilyManifest } from '../family.ts';

export const sshKeysFamily = { name: 'ssh-keys', area: 'ssh_keys' } as const satisfies FamilyManifest;
