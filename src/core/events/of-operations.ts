// The events an operation's end writes, derived from the operation catalogue: every type gets
// operation.completed or operation.failed, and a type whose entry names a `completed` event gets
// that one too at its completion. A new operation type has its events with its catalogue entry.
import { OPERATIONS, type OperationType } from '../operations/catalogue.ts';
import type { EventType } from './catalogue.ts';

/** The resource event of an operation that completed, by operation type (migration 0041's hc_completion_event). */
export const COMPLETION_EVENTS: Readonly<Partial<Record<OperationType, EventType>>> = Object.fromEntries(
  Object.entries(OPERATIONS).flatMap(([type, entry]) => ('completed' in entry ? [[type, entry.completed]] : [])),
);

/** Every event an operation's end writes. */
export function eventsOfFinishedOperation(type: string, outcome: 'completed' | 'failed'): EventType[] {
  if (outcome === 'failed') return ['operation.failed'];
  const resource = Object.hasOwn(COMPLETION_EVENTS, type) ? COMPLETION_EVENTS[type as OperationType] : undefined;
  return resource ? ['operation.completed', resource] : ['operation.completed'];
}
