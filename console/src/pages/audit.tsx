// The audit log (GET /admin/v1/audit-log, audit:read): every admin write, newest first; the filters
// (actor, target type and id, action, since, until) and the page live in the address.
import { admin, qs, when } from '../api.ts';
import { since } from '../components/actions.tsx';
import { Page } from '../components/data.tsx';
import { type Column, ListView } from '../components/list.tsx';

interface AuditEntry {
  id: number;
  at: string;
  actor: { type: string; id: string | null; email: string | null };
  ip: string | null;
  action: string;
  target: { type: string | null; id: string | null };
  changes: Record<string, unknown>;
  request_id: string | null;
}

const TARGET_PAGES: Record<string, string> = { account: '/admin/accounts', staff: '/admin/staff' };

const COLUMNS: Column<AuditEntry>[] = [
  { label: 'When', cell: (e) => <span class="nowrap">{when(e.at)}</span> },
  { label: 'Actor', cell: (e) => <a href={`/admin/audit-log${qs({ actor: e.actor.type === 'staff' ? e.actor.id : e.actor.type })}`}>{e.actor.email ?? e.actor.type}</a> },
  { label: 'Action', cell: (e) => <a href={`/admin/audit-log${qs({ action: e.action })}`}><code>{e.action}</code></a> },
  {
    label: 'Target',
    cell: (e) => (e.target.type ? (
      <>{e.target.type} {e.target.id && (TARGET_PAGES[e.target.type] ? <a href={`${TARGET_PAGES[e.target.type]}/${e.target.id}`}><code>{e.target.id}</code></a> : <code>{e.target.id}</code>)}</>
    ) : '—'),
  },
  { label: 'Address', cell: (e) => e.ip ?? '—' },
  { label: 'Changes', cell: (e) => (Object.keys(e.changes).length ? <details><summary>{Object.keys(e.changes).join(', ')}</summary><pre class="changes">{JSON.stringify(e.changes, null, 2)}</pre></details> : '—') },
];

export function AuditLogPage() {
  return (
    <Page title="Audit log">
      <ListView<AuditEntry>
        caption="Audit log"
        filters={[
          { name: 'actor', label: 'Actor', placeholder: 'stf_…, admin_token or system' },
          { name: 'target_type', label: 'Target type', placeholder: 'account' },
          { name: 'target_id', label: 'Target ID' },
          { name: 'action', label: 'Action', placeholder: 'refundDeposit' },
          { name: 'since', label: 'Since', placeholder: 'YYYY-MM-DD' },
          { name: 'until', label: 'Until', placeholder: 'YYYY-MM-DD' },
        ]}
        load={(p) => admin.get<AuditEntry[]>(`/audit-log${qs({ ...p, since: since(p.since), until: since(p.until) })}`)}
        columns={COLUMNS} rowKey={(e) => String(e.id)}
        empty="No audited write matches."
      />
    </Page>
  );
}
