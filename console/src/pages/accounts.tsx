// Accounts (GET /admin/v1/accounts): search by email, name or id, filter by status, paged — all in
// the address; suspend or reactivate several at once (accounts:write).
import { admin, when } from '../api.ts';
import { Badge, type Money, eachRow, money } from '../components/actions.tsx';
import { Page } from '../components/data.tsx';
import { type BulkAction, type Column, ListView } from '../components/list.tsx';

export interface Account {
  id: string;
  email: string;
  name: string;
  company: string | null;
  phone: string | null;
  country: string | null;
  status: 'active' | 'suspended' | 'closed';
  balance: Money;
  created_at: string;
}

const COLUMNS: Column<Account>[] = [
  { label: 'Account', cell: (a) => <><a href={`/admin/accounts/${a.id}`}>{a.name}</a><br /><span class="muted small">{a.email}</span></> },
  { label: 'ID', cell: (a) => <code>{a.id}</code> },
  { label: 'Status', cell: (a) => <Badge value={a.status} /> },
  { label: 'Balance', cell: (a) => money(a.balance) },
  { label: 'Opened', cell: (a) => when(a.created_at) },
];

const setStatus = (status: 'active' | 'suspended', verb: string): BulkAction<Account> => ({
  label: verb,
  right: 'accounts:write',
  danger: status === 'suspended',
  describe: (rows) => (
    <p>{status === 'suspended' ? 'Suspend' : 'Reactivate'} {rows.map((r) => r.email).join(', ')}?
      {status === 'suspended' && ' Their services stop until they are reactivated.'}</p>
  ),
  run: (rows) => eachRow(rows, (r) => r.email, status === 'suspended' ? 'Suspended' : 'Reactivated',
    (r) => admin.patch(`/accounts/${r.id}`, { status })),
});

export function AccountsPage() {
  return (
    <Page title="Accounts">
      <ListView<Account>
        caption="Accounts"
        search="Search email, name or ID"
        filters={[{ name: 'status', label: 'Status', options: ['active', 'suspended', 'closed'].map((s) => ({ value: s, label: s })) }]}
        load={(p) => admin.get<Account[]>(`/accounts?${new URLSearchParams(p).toString()}`)}
        columns={COLUMNS}
        rowKey={(a) => a.id}
        rowLabel={(a) => a.email}
        bulk={[setStatus('suspended', 'Suspend'), setStatus('active', 'Reactivate')]}
        empty="No account matches."
      />
    </Page>
  );
}
