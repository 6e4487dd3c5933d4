// The input and answer of a VM action, shared by the verb handlers (actions.ts, resize.ts).
import type { Operation } from '../../db/schema.ts';

/** Every field any verb takes; each verb accepts only its own. Sizes are named as the VM's specs. */
export interface VmActionInput {
  password?: string;
  os_version_id?: number;
  cpu_cores?: number;
  ram_mb?: number;
  storage_gb?: number;
}

export interface VmActionResult {
  operation: Operation;
  /** reset_password without a password: the one we generated, shown this once. */
  password?: string;
}
