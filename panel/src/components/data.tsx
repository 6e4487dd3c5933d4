// Loading what a page shows: the state of one request (loading, its data, its error), reloadable.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.ts';
import { BRAND } from '../branding.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | null;
  loading: boolean;
  reload(): Promise<void>;
}

export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const alive = useRef(true);
  useEffect(() => () => { alive.current = false; }, []);
  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const d = await load();
      if (!alive.current) return;
      setData(d);
      setError(null);
    } catch (e) {
      if (!alive.current) return;
      setError(e instanceof ApiError ? e : new ApiError(0, 'CLIENT', String(e)));
    } finally {
      if (alive.current) setLoading(false);
    }
  }, deps);
  useEffect(() => { void reload(); }, [reload]);
  return { data, error, loading, reload };
}

/** Shows the children once `state` has data; a spinner line before, the error instead. */
export function Loading<T>({ state, children }: { state: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (state.error && state.data === undefined) {
    return <p class="notice error" role="alert">{state.error.message}</p>;
  }
  if (state.data === undefined) return <p class="muted" role="status">Loading…</p>;
  return <>{children(state.data)}</>;
}

export function Notice({ kind = 'info', children }: { kind?: 'info' | 'success' | 'error' | 'warning'; children: ComponentChildren }) {
  return <div class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>{children}</div>;
}

export function Page({ title, actions, children }: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => { document.title = `${title} · ${BRAND.name}`; }, [title]);
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-head">
        <h1 id="page-title" tabIndex={-1}>{title}</h1>
        {actions && <div class="page-actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

/**
 * A table that scrolls sideways on a phone instead of breaking the page; `stack`: on a phone each
 * row becomes a card instead, every cell labelled with its column's heading (copied onto the
 * cells after each render, so the rows need not repeat the headings).
 */
export function Table({ caption, head, children, stack }: { caption: string; head: string[]; children: ComponentChildren; stack?: boolean }) {
  const wrap = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!stack || !wrap.current) return;
    for (const row of wrap.current.querySelectorAll('tbody tr')) {
      [...row.children].forEach((cell, i) => { if (head[i]) cell.setAttribute('data-label', head[i]); });
    }
  });
  return (
    <div class={`table-wrap${stack ? ' stack' : ''}`} ref={wrap} tabIndex={0} role="region" aria-label={caption}>
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead><tr>{head.map((h) => <th key={h} scope="col">{h}</th>)}</tr></thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}
