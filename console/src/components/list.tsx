// The console's list: search, filters and page live in the address (`?q=…&status=…&page=2`), so a
// filtered view is a link to share and Back goes to the previous view. Rows may carry checkboxes
// for bulk actions, each behind a confirmation dialog and shown only to roles holding its right.
import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { type Envelope, qs } from '../api.ts';
import { useCan } from '../session.tsx';
import { Empty, Loading, Notice, Table, useLoad } from './data.tsx';
import { ConfirmDialog } from './dialog.tsx';
import { Button, Field, Form, Select } from '../../../ui/form.tsx';

export interface Column<T> {
  label: string;
  cell(row: T): ComponentChildren;
}

export interface Filter {
  /** The query parameter (the same name as the API's, as a rule). */
  name: string;
  label: string;
  /** A select with these choices (an empty choice "Any" is added); without: a text field. */
  options?: { value: string; label: string }[];
  placeholder?: string;
}

export interface BulkAction<T> {
  label: string;
  /** The right a role needs to see it (`accounts:write`). */
  right?: string;
  danger?: boolean;
  /** What the dialog says about the rows chosen. */
  describe(rows: T[]): ComponentChildren;
  /** Does it; the answer (if any) is shown as a notice after. */
  run(rows: T[]): Promise<string | void>;
}

export interface ListProps<T> {
  /** The table's accessible name (`Accounts`). */
  caption: string;
  /** One page of rows for the address's parameters (`page`, `q` and the filters', strings as given). */
  load(params: Record<string, string>): Promise<Envelope<T[]>>;
  columns: Column<T>[];
  rowKey(row: T): string;
  /** How a row is named to a screen reader (`Select <name>`); default: its key. */
  rowLabel?(row: T): string;
  /** The search field's label; none: no search. It sets `q`. */
  search?: string;
  filters?: Filter[];
  bulk?: BulkAction<T>[];
  empty?: ComponentChildren;
  /**
   * Two lists on one page: each names its parameters `<scope>_page`, `<scope>_q`… (the loader still
   * gets `page`, `q`…). Parameters of the address that are not the list's (a tab) are kept.
   */
  scope?: string;
}

export const LIST_PARAMS = ['q', 'page'];

export function ListView<T>(p: ListProps<T>) {
  const { path, query, route } = useLocation();
  const may = useCan();
  const names = [...LIST_PARAMS, ...(p.filters ?? []).map((f) => f.name)];
  const inUrl = (n: string) => (p.scope ? `${p.scope}_${n}` : n);
  const params: Record<string, string> = {};
  for (const n of names) if (query[inUrl(n)]) params[n] = query[inUrl(n)]!;
  const others: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (!names.some((n) => inUrl(n) === k)) others[k] = v;
  const key = JSON.stringify(params);
  const state = useLoad(() => p.load(params), [key]);
  const [draft, setDraft] = useState<Record<string, string>>(params);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [action, setAction] = useState<BulkAction<T> | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => { setDraft(params); setChosen(new Set()); }, [key]);

  const href = (next: Record<string, string | number | undefined>) => {
    const own: Record<string, string | number | undefined> = {};
    for (const [k, v] of Object.entries(next)) own[inUrl(k)] = v;
    return `${path}${qs({ ...others, ...own })}`;
  };
  const go = (next: Record<string, string | undefined>) => route(href(next));
  const apply = (values: Record<string, string>) => go({ ...values, page: undefined });
  const rows = state.data?.data ?? [];
  const pagination = state.data?.meta.pagination;
  const page = Number(params.page ?? '1') || 1;
  const bulk = (p.bulk ?? []).filter((b) => may(b.right));
  const picked = rows.filter((r) => chosen.has(p.rowKey(r)));
  const label = p.rowLabel ?? p.rowKey;
  const toggle = (k: string, on: boolean) => {
    const n = new Set(chosen);
    if (on) n.add(k); else n.delete(k);
    setChosen(n);
  };
  const pageHref = (n: number) => href({ ...params, page: n > 1 ? n : undefined });

  return (
    <div class="list">
      {(p.search || (p.filters ?? []).length > 0) && (
        <Form label={`Filter ${p.caption.toLowerCase()}`} class="filters" onSubmit={() => apply(draft)}>
          {p.search && <Field label={p.search} name="q" type="text" value={draft.q ?? ''} onValue={(v) => setDraft({ ...draft, q: v })} />}
          {(p.filters ?? []).map((f) => (f.options
            ? <Select key={f.name} label={f.label} name={f.name} value={draft[f.name] ?? ''}
                options={[{ value: '', label: 'Any' }, ...f.options]}
                onValue={(v) => apply({ ...draft, [f.name]: v })} />
            : <Field key={f.name} label={f.label} name={f.name} value={draft[f.name] ?? ''} placeholder={f.placeholder}
                onValue={(v) => setDraft({ ...draft, [f.name]: v })} />))}
          <div class="filter-buttons">
            <Button>Apply</Button>
            {Object.keys(params).some((k) => k !== 'page') && <a class="btn plain" href={href({})}>Clear</a>}
          </div>
        </Form>
      )}
      {notice && <Notice kind="success">{notice}</Notice>}
      {bulk.length > 0 && rows.length > 0 && (
        <div class="bulk" role="group" aria-label="Bulk actions">
          <span class="muted">{picked.length} selected</span>
          {bulk.map((b) => (
            <Button key={b.label} type="button" kind={b.danger ? 'danger' : 'plain'} disabled={picked.length === 0}
              onClick={() => { setNotice(null); setAction(b); }}>{b.label}</Button>
          ))}
        </div>
      )}
      <Loading state={state}>
        {() => (rows.length === 0
          ? <Empty>{p.empty ?? 'Nothing matches.'}</Empty>
          : (
            <Table caption={p.caption} head={[...(bulk.length > 0 ? [''] : []), ...p.columns.map((c) => c.label)]}>
              {rows.map((r) => {
                const k = p.rowKey(r);
                return (
                  <tr key={k}>
                    {bulk.length > 0 && (
                      <td class="pick"><input type="checkbox" aria-label={`Select ${label(r)}`} checked={chosen.has(k)}
                        onChange={(e) => toggle(k, e.currentTarget.checked)} /></td>
                    )}
                    {p.columns.map((c) => <td key={c.label}>{c.cell(r)}</td>)}
                  </tr>
                );
              })}
            </Table>
          ))}
      </Loading>
      {pagination && pagination.total_pages > 1 && (
        <nav class="pager" aria-label="Pages">
          {page > 1 ? <a class="btn plain" href={pageHref(page - 1)} rel="prev">Previous</a> : <span class="btn plain" aria-disabled="true">Previous</span>}
          <span>Page {page} of {pagination.total_pages} ({pagination.total} in all)</span>
          {page < pagination.total_pages ? <a class="btn plain" href={pageHref(page + 1)} rel="next">Next</a> : <span class="btn plain" aria-disabled="true">Next</span>}
        </nav>
      )}
      {pagination && pagination.total_pages <= 1 && rows.length > 0 && <p class="muted count">{pagination.total} in all</p>}
      <ConfirmDialog open={action !== null} title={action ? `${action.label}: ${picked.length} selected` : ''}
        confirm={action ? action.label : 'Confirm'} danger={action?.danger}
        onClose={() => setAction(null)}
        onConfirm={async () => {
          if (!action) return;
          const said = await action.run(picked);
          setNotice(said || `${action.label}: done for ${picked.length}.`);
          setChosen(new Set());
          await state.reload();
        }}>
        {action && action.describe(picked)}
      </ConfirmDialog>
    </div>
  );
}
