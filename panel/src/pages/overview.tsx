// The overview: balance, servers and open tickets at a glance, each as its permissions allow.
import { v2, money } from '../api.ts';
import { Loading, Page, useLoad } from '../components/data.tsx';
import { can, useSession } from '../session.tsx';
import type { Data } from '../api-types.ts';

function Card({ title, href, children }: { title: string; href: string; children: preact.ComponentChildren }) {
  return <a class="card" href={href}><h2>{title}</h2>{children}</a>;
}

export function OverviewPage() {
  const { me } = useSession();
  const balance = useLoad(async () => (can(me, 'billing:read') ? (await v2.get<Data<'getBalance'>>('/billing/balance')).data : null));
  const servers = useLoad(async () => (can(me, 'servers:read') ? (await v2.get<unknown[]>('/servers?per_page=1')).meta.pagination?.total ?? 0 : null));
  const tickets = useLoad(async () => (can(me, 'tickets:read') ? (await v2.get<Data<'listTickets'>>('/tickets?per_page=100')).data.filter((t) => t.status !== 'closed').length : null));
  return (
    <Page title={`Welcome${me.account ? `, ${me.account.name}` : ''}`}>
      <div class="cards">
        {can(me, 'billing:read') && <Card title="Balance" href="/panel/billing"><Loading state={balance}>{(b) => <p class="big">{money(b?.balance)}</p>}</Loading></Card>}
        {can(me, 'servers:read') && <Card title="Servers" href="/panel/servers"><Loading state={servers}>{(n) => <p class="big">{n}</p>}</Loading></Card>}
        {can(me, 'tickets:read') && <Card title="Open tickets" href="/panel/tickets"><Loading state={tickets}>{(n) => <p class="big">{n}</p>}</Loading></Card>}
        <Card title="API keys" href="/panel/api-keys"><p>Keys for scripts and tools</p></Card>
        <Card title="Security" href="/panel/security"><p>Two-factor is {me.user?.two_factor ? 'on' : 'off'}</p></Card>
      </div>
    </Page>
  );
}
