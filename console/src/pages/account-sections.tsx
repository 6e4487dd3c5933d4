// The account page's tabs that only read: the timeline (GET …/timeline), services, access
// (sub-users, API keys) and tickets. Each list keeps its own page in the address.
import { admin, when } from '../api.ts';
import { Badge } from '../components/actions.tsx';
import { type Column, ListView } from '../components/list.tsx';
import type { Account } from './accounts.tsx';

interface TimelineEntry {
  kind: 'event' | 'ledger' | 'ticket' | 'audit';
  at: string;
  ref: string;
  title: string;
  data: Record<string, unknown>;
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const centsOf = (v: unknown) => {
  const c = Number(v);
  return `${c < 0 ? '-' : ''}$${(Math.abs(c) / 100).toFixed(2)}`;
};

function detail(e: TimelineEntry) {
  const d = e.data;
  switch (e.kind) {
    case 'ledger': return <>{centsOf(d.amount_cents)} · {str(d.description)} <span class="muted">(balance {centsOf(d.balance_after_cents)})</span></>;
    case 'ticket': return <><a href={`/admin/tickets/${str(d.ticket_id)}`}>#{str(d.ticket_id)} {str(d.subject)}</a>{d.excerpt ? <span class="muted"> — {str(d.excerpt)}</span> : null}</>;
    case 'audit': return (
      <>by {str(d.actor_email) || str(d.actor_type)}
        {d.changes && Object.keys(d.changes as object).length > 0 && <details><summary>Changes</summary><pre class="changes">{JSON.stringify(d.changes, null, 2)}</pre></details>}
      </>
    );
    default: return <>{str(d.resource_type)} <code>{str(d.resource_id)}</code></>;
  }
}

const TIMELINE: Column<TimelineEntry>[] = [
  { label: 'When', cell: (e) => <span class="nowrap">{when(e.at)}</span> },
  { label: 'Kind', cell: (e) => <Badge value={e.kind} /> },
  { label: 'What', cell: (e) => <code>{e.title}</code> },
  { label: 'Details', cell: detail },
];

export function TimelineTab({ account }: { account: Account }) {
  return (
    <section aria-label="Timeline">
      <h2>Timeline</h2>
      <ListView<TimelineEntry>
        caption="Timeline"
        filters={[{ name: 'kind', label: 'Kind', options: ['event', 'ledger', 'ticket', 'audit'].map((k) => ({ value: k, label: k })) }]}
        load={(p) => admin.get<TimelineEntry[]>(`/accounts/${account.id}/timeline?${new URLSearchParams(p).toString()}`)}
        columns={TIMELINE}
        rowKey={(e) => `${e.kind}:${e.ref}`}
        empty="Nothing has happened on this account yet."
      />
    </section>
  );
}

interface Service { type: string; id: string; name: string; status: string; created_at: string | null }

const SERVICE_LINK: Record<string, string> = { server: '/admin/servers', vdc_vm: '/admin/vdc-vms' };

export function ServicesTab({ account }: { account: Account }) {
  return (
    <section aria-label="Services">
      <h2>Services</h2>
      <ListView<Service>
        caption="Services" scope="services"
        load={(p) => admin.get<Service[]>(`/accounts/${account.id}/services?${new URLSearchParams(p).toString()}`)}
        columns={[
          { label: 'Type', cell: (s) => s.type.replace(/_/g, ' ') },
          { label: 'Name', cell: (s) => (SERVICE_LINK[s.type] ? <a href={`${SERVICE_LINK[s.type]}?q=${encodeURIComponent(s.id)}`}>{s.name}</a> : s.name) },
          { label: 'ID', cell: (s) => <code>{s.id}</code> },
          { label: 'Status', cell: (s) => <Badge value={s.status} /> },
          { label: 'Created', cell: (s) => when(s.created_at) },
        ]}
        rowKey={(s) => `${s.type}:${s.id}`}
        empty="No services."
      />
    </section>
  );
}

interface SubUser { id: number; email: string; name?: string | null; status: string; created_at?: string }
interface ApiKey { id: string; name: string; prefix: string; is_test: boolean; status: string; sub_user_id: number | null; last_used_at: string | null; created_at: string }

export function AccessTab({ account }: { account: Account }) {
  return (
    <>
      <section aria-label="Sub-users">
        <h2>Sub-users</h2>
        <ListView<SubUser>
          caption="Sub-users" scope="subusers"
          load={(p) => admin.get<SubUser[]>(`/accounts/${account.id}/sub-users?${new URLSearchParams(p).toString()}`)}
          columns={[
            { label: 'Email', cell: (u) => u.email },
            { label: 'Name', cell: (u) => u.name ?? '—' },
            { label: 'Status', cell: (u) => <Badge value={u.status} /> },
            { label: 'Invited', cell: (u) => when(u.created_at) },
          ]}
          rowKey={(u) => String(u.id)}
          empty="No sub-users."
        />
      </section>
      <section aria-label="API keys">
        <h2>API keys</h2>
        <ListView<ApiKey>
          caption="API keys" scope="keys"
          load={(p) => admin.get<ApiKey[]>(`/accounts/${account.id}/api-keys?${new URLSearchParams(p).toString()}`)}
          columns={[
            { label: 'Name', cell: (k) => <>{k.name}{k.is_test && <> <Badge value="test" /></>}</> },
            { label: 'Prefix', cell: (k) => <code>{k.prefix}</code> },
            { label: 'Status', cell: (k) => <Badge value={k.status} /> },
            { label: 'Sub-user', cell: (k) => (k.sub_user_id === null ? '—' : `#${k.sub_user_id}`) },
            { label: 'Last used', cell: (k) => when(k.last_used_at) },
          ]}
          rowKey={(k) => k.id}
          empty="No API keys."
        />
      </section>
    </>
  );
}

interface Ticket { id: string; subject: string; status: string; priority: string; created_at: string; updated_at?: string }

export function TicketsTab({ account }: { account: Account }) {
  return (
    <section aria-label="Tickets">
      <h2>Tickets</h2>
      <ListView<Ticket>
        caption="Tickets" scope="tickets"
        filters={[{ name: 'status', label: 'Status', options: ['open', 'answered', 'customer_reply', 'in_progress', 'pending', 'closed'].map((s) => ({ value: s, label: s.replace(/_/g, ' ') })) }]}
        load={(p) => admin.get<Ticket[]>(`/tickets?${new URLSearchParams({ ...p, account_id: account.id }).toString()}`)}
        columns={[
          { label: 'Ticket', cell: (t) => <a href={`/admin/tickets/${t.id}`}>#{t.id} {t.subject}</a> },
          { label: 'Status', cell: (t) => <Badge value={t.status} /> },
          { label: 'Priority', cell: (t) => t.priority },
          { label: 'Opened', cell: (t) => when(t.created_at) },
        ]}
        rowKey={(t) => t.id}
        empty="No tickets."
      />
    </section>
  );
}
