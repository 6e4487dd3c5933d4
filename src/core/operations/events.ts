// The events an operation's end writes, derived from the operation catalogue: every type gets
// operation.completed or operation.failed, and a type whose entry names a `completed` event gets
// that one too at its completion. A new operation type has its events with its catalogue entry.
// (Their table by type is src/core/families.ts COMPLETION_EVENTS.)
import type { EventType } from '../events/catalogue.ts';
import { entryOf } from './catalogue.ts';

/** Every event an operation's end writes. */
export function eventsOfFinishedOperation(type: string, outcome: 'completed' | 'failed'): EventType[] {
  if (outcome === 'failed') return ['operation.failed'];
  const resource = entryOf(type)?.completed;
  return resource ? ['operation.completed', resource] : ['operation.completed'];
}
