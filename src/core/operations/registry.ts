// Every operation type the worker knows, by name. A type missing here fails its operations
// with a readable detail rather than retrying forever.
import type { Runner } from './runner.ts';
import { serverCreateRunner } from '../servers/provision.ts';
import { serverDeleteRunner } from '../servers/delete-runner.ts';
import { serverSnapshotRunner } from '../servers/snapshot-runner.ts';

const RUNNERS: Record<string, Runner> = {
  'server.create': serverCreateRunner,
  'server.delete': serverDeleteRunner,
  'server.snapshot': serverSnapshotRunner,
};

export function runnerFor(type: string): Runner | undefined {
  return Object.hasOwn(RUNNERS, type) ? RUNNERS[type] : undefined;
}
