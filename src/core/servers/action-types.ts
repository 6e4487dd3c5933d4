// What a server action takes and answers (actions.ts runs them; resize.ts and clone.ts are two of
// them): a file of its own, so that the verbs' modules and the dispatcher import no one another.
import type { Operation } from '../../db/schema.ts';
import type { MigrateMode } from '../nodes/runners/server.migrate.ts';
import type { ServerView } from './read.ts';

/** Every field any verb takes (one body for all verbs); each verb accepts only its own. */
export interface ActionInput {
  password?: string;
  os_version_id?: number;
  cpu?: number;
  ram_gb?: number;
  disk_gb?: number;
  hostname?: string;
  /** migrate (a v2 addition): live (default) or cold. */
  mode?: MigrateMode;
  /** migrate: another location (cold only; new addresses there). */
  location_id?: number;
}

export interface ActionResult {
  operation: Operation;
  /** reset_password without a password: the one we generated, shown this once. */
  password?: string;
  /** clone: the new server (pending until the operation completes). */
  server?: ServerView;
}
