// One account: profile and status (suspend, reactivate, close behind a confirmation), its actions
// slot (components/account-actions.tsx), and tabs held in the address (`?tab=`): the timeline,
// billing (balance, deposit, payments with refunds, ledger, invoices), services, access (sub-users,
// API keys) and tickets. Each tab shows only to a role that reads it.
import { useLocation } from 'preact-iso';
import { admin, qs, when } from '../api.ts';
import { AccountActions } from '../components/account-actions.tsx';
import { Badge, money, useConfirm } from '../components/actions.tsx';
import { Loading, Notice, Page, useLoad } from '../components/data.tsx';
import { Button } from '../../../ui/form.tsx';
import { useCan } from '../session.tsx';
import type { Account } from './accounts.tsx';
import { AccessTab, ServicesTab, TicketsTab, TimelineTab } from './account-sections.tsx';
import { BillingTab } from './account-billing.tsx';

const TABS = [
  { id: 'timeline', label: 'Timeline', right: 'accounts:read' },
  { id: 'billing', label: 'Billing', right: 'billing:read' },
  { id: 'services', label: 'Services', right: 'services:read' },
  { id: 'access', label: 'Access', right: 'access:read' },
  { id: 'tickets', label: 'Tickets', right: 'tickets:read' },
] as const;

export function AccountPage({ id = '' }: { id?: string }) {
  const state = useLoad(async () => (await admin.get<Account>(`/accounts/${encodeURIComponent(id)}`)).data, [id]);
  const may = useCan();
  const { path, query } = useLocation();
  const confirm = useConfirm(() => state.reload());
  const tabs = TABS.filter((t) => may(t.right));
  const tab = tabs.find((t) => t.id === query.tab) ?? tabs[0]!;
  const setStatus = (a: Account, status: Account['status'], verb: string, body: string) => confirm.ask({
    title: `${verb} ${a.email}`, confirm: verb, danger: status !== 'active', body: <p>{body}</p>,
    run: async () => { await admin.patch(`/accounts/${a.id}`, { status }); return `${verb}: done.`; },
  });
  return (
    <Page title={state.data ? state.data.name : 'Account'} actions={state.data && (
      <div class="row-actions">
        <AccountActions account={state.data} />
        {may('accounts:write') && state.data.status === 'active' && (
          <Button type="button" kind="plain" onClick={() => setStatus(state.data!, 'suspended', 'Suspend', 'The account\'s services stop and it cannot order until reactivated.')}>Suspend</Button>
        )}
        {may('accounts:write') && state.data.status !== 'active' && (
          <Button type="button" kind="plain" onClick={() => setStatus(state.data!, 'active', 'Reactivate', 'The account can use and order services again.')}>Reactivate</Button>
        )}
        {may('accounts:write') && state.data.status !== 'closed' && (
          <Button type="button" kind="danger" onClick={() => setStatus(state.data!, 'closed', 'Close', 'The account is closed: its services end and it cannot sign in.')}>Close account</Button>
        )}
      </div>
    )}>
      <p><a href="/admin/accounts">← Accounts</a></p>
      {confirm.notice && <Notice kind="success">{confirm.notice}</Notice>}
      <Loading state={state}>
        {(a) => (
          <>
            <dl class="facts">
              <div><dt>ID</dt><dd><code>{a.id}</code></dd></div>
              <div><dt>Email</dt><dd>{a.email}</dd></div>
              <div><dt>Status</dt><dd><Badge value={a.status} /></dd></div>
              <div><dt>Balance</dt><dd>{money(a.balance)}</dd></div>
              <div><dt>Company</dt><dd>{a.company ?? '—'}</dd></div>
              <div><dt>Phone</dt><dd>{a.phone ?? '—'}</dd></div>
              <div><dt>Country</dt><dd>{a.country ?? '—'}</dd></div>
              <div><dt>Opened</dt><dd>{when(a.created_at)}</dd></div>
            </dl>
            <nav class="sub-nav" aria-label="Account sections">
              {tabs.map((t) => <a key={t.id} href={`${path}${qs({ tab: t.id === 'timeline' ? undefined : t.id })}`} aria-current={t.id === tab.id ? 'page' : undefined}>{t.label}</a>)}
            </nav>
            {tab.id === 'timeline' && <TimelineTab account={a} />}
            {tab.id === 'billing' && <BillingTab account={a} onChange={() => state.reload()} />}
            {tab.id === 'services' && <ServicesTab account={a} />}
            {tab.id === 'access' && <AccessTab account={a} />}
            {tab.id === 'tickets' && <TicketsTab account={a} />}
          </>
        )}
      </Loading>
      {confirm.dialog}
    </Page>
  );
}
