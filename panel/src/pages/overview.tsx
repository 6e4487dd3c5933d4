// The overview: balance, servers and open tickets at a glance, each as its permissions allow; an
// account that has nothing yet (no server, no domain) is offered its first steps instead of zeros.
import { v2, money } from '../api.ts';
import { Loading, Page, useLoad } from '../components/data.tsx';
import { can, useSession } from '../session.tsx';
import type { Data } from '../api-types.ts';

function Card({ title, href, children }: { title: string; href: string; children: preact.ComponentChildren }) {
  return <a class="card" href={href}><h2>{title}</h2>{children}</a>;
}

const total = async (path: string) => (await v2.get<unknown[]>(`${path}?per_page=1`)).meta.pagination?.total ?? 0;

function FirstSteps() {
  const { me } = useSession();
  const steps = [
    { scope: 'billing:write', href: '/panel/billing/top-up', title: 'Top up your balance', text: 'Servers and domains are paid from it.' },
    { scope: 'servers:write', href: '/panel/servers/new', title: 'Create your first server', text: 'Pick a location, a size and an OS; it is ready in a minute.' },
    { scope: 'domains:write', href: '/panel/domains', title: 'Register a domain', text: 'Check a name and register it, or transfer one in.' },
    { scope: 'ssh_keys:write', href: '/panel/ssh-keys', title: 'Add an SSH key', text: 'Sign in to new servers without a password.' },
  ].filter((s) => can(me, s.scope));
  if (steps.length === 0) return null;
  return (
    <section aria-labelledby="first-steps">
      <h2 id="first-steps">Get started</h2>
      <div class="cards first-steps">
        {steps.map((s) => <Card key={s.href} title={s.title} href={s.href}><p>{s.text}</p></Card>)}
      </div>
    </section>
  );
}

export function OverviewPage() {
  const { me } = useSession();
  const balance = useLoad(async () => (can(me, 'billing:read') ? (await v2.get<Data<'getBalance'>>('/billing/balance')).data : null));
  const servers = useLoad(async () => (can(me, 'servers:read') ? total('/servers') : null));
  const domains = useLoad(async () => (can(me, 'domains:read') ? total('/domains') : null));
  const tickets = useLoad(async () => (can(me, 'tickets:read') ? (await v2.get<Data<'listTickets'>>('/tickets?per_page=100')).data.filter((t) => t.status !== 'closed').length : null));
  // Nothing yet: neither a server nor a domain (a count this person may not read counts as nothing).
  const isNew = servers.data !== undefined && domains.data !== undefined && !servers.data && !domains.data;
  return (
    <Page title={`Welcome${me.account ? `, ${me.account.name}` : ''}`}>
      {isNew && <FirstSteps />}
      {isNew && <h2>Your account</h2>}
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
