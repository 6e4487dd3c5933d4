// What the operator pages share beyond the list: a section's tabs, one action behind a
// confirmation (a row's button, a detail page's), and a bulk action run row by row with a summary
// of what each row answered (one refused row does not stop the others).
import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { ApiError } from '../api.ts';
import { ConfirmDialog } from './dialog.tsx';

export function SubNav({ label, links }: { label: string; links: { href: string; label: string; show?: boolean }[] }) {
  const { path } = useLocation();
  return (
    <nav class="sub-nav" aria-label={label}>
      {links.filter((l) => l.show !== false).map((l) => (
        <a key={l.href} href={l.href} aria-current={path === l.href ? 'page' : undefined}>{l.label}</a>
      ))}
    </nav>
  );
}

export interface Pending {
  title: string;
  confirm: string;
  danger?: boolean;
  body?: ComponentChildren;
  /** Does it; a string is shown as the page's notice after. */
  run(): Promise<string | void>;
}

/** One confirmed action at a time: `ask({...})` opens the dialog; `dialog` renders it; `notice` is the last outcome. */
export function useConfirm(after?: () => void | Promise<void>) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const dialog = (
    <ConfirmDialog open={pending !== null} title={pending?.title ?? ''} confirm={pending?.confirm ?? 'Confirm'} danger={pending?.danger}
      onClose={() => setPending(null)}
      onConfirm={async () => {
        if (!pending) return;
        const said = await pending.run();
        setNotice(said || `${pending.confirm}: done.`);
        await after?.();
      }}>
      {pending?.body}
    </ConfirmDialog>
  );
  return { ask: (p: Pending) => { setNotice(null); setPending(p); }, dialog, notice, setNotice };
}

/**
 * Runs `fn` on each row in turn. All refused: throws the first refusal (the dialog shows it);
 * otherwise a summary naming each refused row and why.
 */
export async function eachRow<T>(rows: T[], name: (r: T) => string, verb: string, fn: (r: T) => Promise<unknown>): Promise<string> {
  const refused: { row: T; error: ApiError }[] = [];
  for (const r of rows) {
    try {
      await fn(r);
    } catch (e) {
      refused.push({ row: r, error: e instanceof ApiError ? e : new ApiError(0, 'CLIENT', String(e)) });
    }
  }
  if (refused.length === rows.length && refused[0]) {
    const first = refused[0];
    throw new ApiError(first.error.status, first.error.code, rows.length === 1 ? first.error.message
      : `None done. ${refused.map((x) => `${name(x.row)}: ${x.error.message}`).join('; ')}`);
  }
  const done = rows.length - refused.length;
  return `${verb} ${done} of ${rows.length}.${refused.length ? ` Refused: ${refused.map((x) => `${name(x.row)} (${x.error.message})`).join('; ')}` : ''}`;
}

export function Badge({ value }: { value: string }) {
  return <span class={`badge ${value}`}>{value.replace(/_/g, ' ')}</span>;
}

export interface Money { amount: string; currency: string }

export function money(m: Money | null | undefined): string {
  if (!m) return '—';
  const n = Number(m.amount);
  const sign = n < 0 ? '-' : '';
  return `${sign}$${Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** The value of a query parameter as a date-time for the API: a date alone is its midnight UTC. */
export function since(v: string | undefined): string | undefined {
  if (!v) return undefined;
  return /^\d{4}-\d\d-\d\d$/.test(v) ? `${v}T00:00:00Z` : v;
}
