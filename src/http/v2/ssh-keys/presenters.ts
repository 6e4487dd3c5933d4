// SSH key resources of v2.
import { Type } from '@sinclair/typebox';
import { KEY_TYPES, previewOf } from '../../../core/ssh-keys/parse.ts';
import { ts } from '../../../core/time.ts';
import type { SshKey } from '../../../db/schema.ts';
import { IntId, StringEnum, Timestamp, component } from '../../schemas.ts';

export const SshKeyParams = Type.Object({ id: { ...IntId, description: 'The SSH key\'s id.', examples: [12] } });

const EXAMPLE = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOgrwl0f5A2kUotfqOttm6K9jlEaiF/jl0RrznG0yJGa ada@laptop';

export const SshKeySchema = component('SshKey', Type.Object({
  id: Type.Integer({ description: 'Pass it in `ssh_key_ids` of POST /servers.', examples: [12] }),
  name: Type.String({ examples: ['ada laptop'] }),
  public_key: Type.String({ description: 'The OpenSSH public key, as added (white space between its parts made single).', examples: [EXAMPLE] }),
  public_key_preview: Type.String({ description: 'The type, the first and last 8 characters of the key data, and the comment.', examples: [previewOf(EXAMPLE)] }),
  fingerprint: Type.String({ description: 'SHA256, as `ssh-keygen -l` prints it.', examples: ['SHA256:us2lF8r+uRPjaoGGEV7OrlyajztxddoRgFTT01Lrv8I'] }),
  type: StringEnum(KEY_TYPES),
  bits: Type.Integer({ description: 'Key size: 256 for Ed25519, the curve for ECDSA, the modulus for RSA.', examples: [256] }),
  created_at: Timestamp,
}, { description: 'An SSH public key of the account, to install on new servers.' }));

export function sshKeyView(k: SshKey) {
  return {
    id: k.id, name: k.name, public_key: k.public_key, public_key_preview: previewOf(k.public_key), fingerprint: k.fingerprint,
    type: k.key_type as (typeof KEY_TYPES)[number], bits: k.bits, created_at: ts(k.created_at),
  };
}
