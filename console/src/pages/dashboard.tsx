// The dashboard (GET /admin/v1/dashboard): the figures an operator checks first, each a link to
// the page that lists them where there is one. Money shows only to roles that read billing.
import { admin, cents, when } from '../api.ts';
import { Empty, Loading, Page, Table, useLoad } from '../components/data.tsx';

interface Fill { used: number; capacity: number }

export interface Dashboard {
  at: string;
  accounts: number;
  active_servers: number;
  failed_operations_24h: number;
  queue_depth: number;
  revenue_month: { net_cents: number; refunded_cents: number; since: string } | null;
  payments_today: { count: number; gross_cents: number; since: string } | null;
  nodes: { id: number; name: string; status: string; cpu: Fill; ram_mb: Fill; storage_gb: Fill }[];
  open_tickets: { department_id: number | null; department: string | null; open: number }[];
}

function Card({ title, value, note, href }: { title: string; value: string | number; note?: string; href?: string }) {
  const body = (
    <>
      <h2>{title}</h2>
      <p class="big">{value}</p>
      {note && <p class="muted small">{note}</p>}
    </>
  );
  return href ? <a class="card" href={href}>{body}</a> : <div class="card">{body}</div>;
}

function Meter({ label, fill, unit }: { label: string; fill: Fill; unit: string }) {
  const pct = fill.capacity > 0 ? Math.round((fill.used / fill.capacity) * 100) : 0;
  return (
    <div class="meter-cell">
      <meter min={0} max={fill.capacity || 1} low={(fill.capacity || 1) * 0.7} high={(fill.capacity || 1) * 0.9} optimum={0}
        value={fill.used} aria-label={`${label}: ${fill.used} of ${fill.capacity} ${unit}`} />
      <span class="small">{fill.used}/{fill.capacity} {unit} ({pct}%)</span>
    </div>
  );
}

export function DashboardPage() {
  const state = useLoad(async () => (await admin.get<Dashboard>('/dashboard')).data, []);
  return (
    <Page title="Dashboard">
      <Loading state={state}>
        {(d) => (
          <>
            <div class="cards">
              <Card title="Accounts" value={d.accounts.toLocaleString('en-US')} href="/admin/accounts" />
              {d.revenue_month && <Card title="Revenue this month" value={cents(d.revenue_month.net_cents)} note={`net of tax and ${cents(d.revenue_month.refunded_cents)} refunded`} />}
              {d.payments_today && <Card title="Payments today" value={d.payments_today.count} note={`${cents(d.payments_today.gross_cents)} gross`} />}
              <Card title="Active servers" value={d.active_servers.toLocaleString('en-US')} href="/admin/servers" />
              <Card title="Failed operations (24 h)" value={d.failed_operations_24h} href="/admin/operations?status=failed" />
              <Card title="Queue depth" value={d.queue_depth} note="operations queued" href="/admin/operations?status=queued" />
            </div>
            <h2>Node fill</h2>
            {d.nodes.length === 0 ? <Empty>No hypervisor nodes yet.</Empty> : (
              <Table caption="Node fill" head={['Node', 'Status', 'CPU', 'RAM', 'Storage']}>
                {d.nodes.map((n) => (
                  <tr key={n.id}>
                    <td>{n.name}</td>
                    <td><span class={`badge ${n.status}`}>{n.status}</span></td>
                    <td><Meter label={`${n.name} CPU`} fill={n.cpu} unit="cores" /></td>
                    <td><Meter label={`${n.name} RAM`} fill={{ used: Math.round(n.ram_mb.used / 1024), capacity: Math.round(n.ram_mb.capacity / 1024) }} unit="GB" /></td>
                    <td><Meter label={`${n.name} storage`} fill={n.storage_gb} unit="GB" /></td>
                  </tr>
                ))}
              </Table>
            )}
            <h2>Open tickets</h2>
            {d.open_tickets.length === 0 ? <Empty>No open tickets.</Empty> : (
              <Table caption="Open tickets by department" head={['Department', 'Open']}>
                {d.open_tickets.map((t) => (
                  <tr key={t.department_id ?? 'none'}><td>{t.department ?? 'No department'}</td><td class="num">{t.open}</td></tr>
                ))}
              </Table>
            )}
            <p class="muted small">As of {when(d.at)}.</p>
          </>
        )}
      </Loading>
    </Page>
  );
}
