// An operation's live progress, without a reload: GET /v2/operations/{id}?wait=25 answers as soon
// as it finishes (the server's long-poll); a server without it (422 on the unknown parameter) is
// asked every 1.5 seconds instead.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, v2 } from '../api.ts';

export type { Operation } from '../api-types.ts';
import type { Operation } from '../api-types.ts';

let longPoll = true;

async function next(id: string): Promise<Operation> {
  if (longPoll) {
    try {
      return (await v2.get<Operation>(`/operations/${id}?wait=25`)).data;
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 'VALIDATION_FAILED') throw e;
      longPoll = false;
    }
  }
  await new Promise((r) => setTimeout(r, 1500));
  return (await v2.get<Operation>(`/operations/${id}`)).data;
}

export function isDone(op: Operation): boolean {
  return op.status === 'completed' || op.status === 'failed';
}

/** Follows an operation until it ends; `onDone` runs once then (to reload what it changed). */
export function useOperation(initial: Operation | null, onDone?: (op: Operation) => void): Operation | null {
  const [op, setOp] = useState<Operation | null>(initial);
  useEffect(() => setOp(initial), [initial?.id]);
  useEffect(() => {
    if (!op) return;
    // Finished before the page first read it (a busy machine, a page opened later): what it changed
    // is read again all the same, or the page would keep what it read while it ran.
    if (isDone(op)) {
      onDone?.(op);
      return;
    }
    let stop = false;
    (async () => {
      let current = op;
      while (!stop && !isDone(current)) {
        try {
          current = await next(current.id);
        } catch {
          await new Promise((r) => setTimeout(r, 3000));
          continue;
        }
        if (!stop) setOp(current);
      }
      if (!stop && onDone) onDone(current);
    })();
    return () => { stop = true; };
  }, [op?.id]);
  return op;
}

const LABEL: Record<Operation['status'], string> = { queued: 'Queued', running: 'Running', completed: 'Completed', failed: 'Failed' };

export function OperationProgress({ op }: { op: Operation | null }) {
  if (!op) return null;
  const pct = op.status === 'completed' ? 100 : op.progress_pct ?? (op.status === 'queued' ? 0 : undefined);
  return (
    <div class={`operation ${op.status}`} role="status" aria-live="polite" aria-label={`Operation ${op.type}`}>
      <div class="operation-head">
        <strong>{op.type}</strong> <span class={`badge ${op.status}`}>{LABEL[op.status]}</span>
      </div>
      {op.status !== 'failed' && (pct !== undefined
        ? <progress max={100} value={pct} aria-label={`${op.type} progress`}>{pct}%</progress>
        : <progress aria-label={`${op.type} progress`} />)}
      <p class="muted">{op.detail}</p>
    </div>
  );
}
