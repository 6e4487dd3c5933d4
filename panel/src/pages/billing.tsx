// Billing: the balance and the ledger, newest first. (Top-up and invoices join this section.)
import { useState } from 'preact/hooks';
import { type Envelope, money, v2, when } from '../api.ts';
import { Empty, Loading, Page, Table, useLoad } from '../components/data.tsx';
import { Pager } from '../components/pager.tsx';
import { SubNav } from '../components/sub-nav.tsx';
import type { Data, Item } from '../api-types.ts';

type Tx = Item<'listTransactions'>;

export function BillingPage() {
  const [page, setPage] = useState(1);
  const balance = useLoad(async () => (await v2.get<Data<'getBalance'>>('/billing/balance')).data);
  const txs = useLoad<Envelope<Tx[]>>(async () => v2.get<Tx[]>(`/billing/transactions?page=${page}&per_page=25`), [page]);
  return (
    <Page title="Billing">
      <SubNav section="/panel/billing" />
      <div class="cards">
        <div class="card"><h2>Balance</h2><Loading state={balance}>{(b) => <p class="big" aria-label="Balance">{money(b.balance)}</p>}</Loading></div>
      </div>
      <h2>Transactions</h2>
      <Loading state={txs}>
        {(e) => e.data.length === 0 ? <Empty>No transactions yet.</Empty> : (
          <>
            <Table caption="Transactions" head={['Date', 'Type', 'Amount', 'Description']}>
              {e.data.map((t) => (
                <tr key={t.id}>
                  <td>{when(t.created_at)}</td>
                  <td>{t.type}</td>
                  <td class={`num ${t.type === 'withdraw' ? 'minus' : 'plus'}`}>{t.type === 'withdraw' ? '−' : '+'}{money(t.amount)}</td>
                  <td>{t.description}</td>
                </tr>
              ))}
            </Table>
            <Pager meta={e.meta} page={page} onPage={setPage} />
          </>
        )}
      </Loading>
    </Page>
  );
}
