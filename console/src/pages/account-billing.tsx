// The account page's billing tab (billing:read): balance, a deposit (billing:write), the top-up
// payments with a refund for a paid one (billing:write: POST /deposits/{id}/refunds — money back
// through the provider and a credit note), the ledger and the invoices.
import { useState } from 'preact/hooks';
import { admin, when } from '../api.ts';
import { Badge, type Money, money, useConfirm } from '../components/actions.tsx';
import { Notice } from '../components/data.tsx';
import { Button, Field, Form, FormError, useForm } from '../../../ui/form.tsx';
import { type Column, ListView } from '../components/list.tsx';
import { useCan } from '../session.tsx';
import type { Account } from './accounts.tsx';

interface Payment {
  id: string;
  status: string;
  amount: Money;
  tax: Money;
  total: Money;
  provider: string;
  deposit_id: number | null;
  invoice_id: string | null;
  created_at: string;
  settled_at: string | null;
}

interface Transaction { id: number; type: string; amount: Money; description: string; status: string; created_at: string }
interface Invoice { id: string; number: string; kind: 'invoice' | 'credit_note'; issued_at: string; net: Money; gross: Money; description: string; reason: string | null }

function DepositForm({ account, onDone }: { account: Account; onDone(): void }) {
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const f = useForm();
  return (
    <Form label="Add a deposit" class="form inline-form" onSubmit={() => f.submit(async () => {
      setDone(null);
      const r = await admin.post<Transaction>(`/accounts/${account.id}/deposits`, { amount: amount.trim(), ...(description.trim() ? { description: description.trim() } : {}) });
      setDone(`Deposited ${money(r.data.amount)}.`);
      setAmount('');
      setDescription('');
      onDone();
    })}>
      <h3>Add a deposit</h3>
      {done && <Notice kind="success">{done}</Notice>}
      <div class="row">
        <Field label="Amount (USD)" name="amount" value={amount} onValue={setAmount} error={f.field('amount')} inputMode="decimal" placeholder="25.00" required />
        <Field label="Description" name="description" value={description} onValue={setDescription} error={f.field('description')} placeholder="Bank transfer 2026-11" />
      </div>
      <FormError error={f.error} fields={['amount', 'description']} />
      <Button busy={f.busy}>Deposit</Button>
    </Form>
  );
}

function RefundFields({ max, onAmount, onReason }: { max: Money; onAmount(v: string): void; onReason(v: string): void }) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  return (
    <>
      <p>The amount goes back through the payment provider and comes off the balance; a credit note is issued.</p>
      <Field label="Amount (USD)" name="refund_amount" value={amount} onValue={(v) => { setAmount(v); onAmount(v); }} inputMode="decimal"
        hint={`Empty: the whole ${money(max)}`} />
      <Field label="Reason" name="refund_reason" value={reason} onValue={(v) => { setReason(v); onReason(v); }} />
    </>
  );
}

export function BillingTab({ account, onChange }: { account: Account; onChange(): void }) {
  const may = useCan();
  const [version, setVersion] = useState(0);
  const refresh = () => { setVersion(version + 1); onChange(); };
  const confirm = useConfirm(refresh);
  const refund = (p: Payment) => {
    const input = { amount: '', reason: '' };
    confirm.ask({
      title: `Refund payment ${p.id}`, confirm: 'Refund', danger: true,
      body: <RefundFields max={p.amount} onAmount={(v) => { input.amount = v; }} onReason={(v) => { input.reason = v; }} />,
      run: async () => {
        const body = { ...(input.amount.trim() ? { amount: input.amount.trim() } : {}), ...(input.reason.trim() ? { reason: input.reason.trim() } : {}) };
        const r = await admin.post<Invoice>(`/deposits/${p.deposit_id}/refunds`, body);
        return `Refunded ${money(r.data.net)}: credit note ${r.data.number} issued.`;
      },
    });
  };
  const payments: Column<Payment>[] = [
    { label: 'Payment', cell: (p) => <code>{p.id}</code> },
    { label: 'Status', cell: (p) => <Badge value={p.status} /> },
    { label: 'Amount', cell: (p) => <>{money(p.amount)} <span class="muted small">({money(p.total)} with tax)</span></> },
    { label: 'Provider', cell: (p) => p.provider },
    { label: 'Settled', cell: (p) => when(p.settled_at) },
    ...(may('billing:write') ? [{
      label: 'Actions',
      cell: (p: Payment) => (p.status === 'paid' && p.deposit_id !== null
        ? <Button type="button" kind="plain" label={`Refund payment ${p.id}`} onClick={() => refund(p)}>Refund</Button>
        : null),
    }] : []),
  ];
  return (
    <section aria-label="Billing" key={version}>
      <h2>Balance: {money(account.balance)}</h2>
      {confirm.notice && <Notice kind="success">{confirm.notice}</Notice>}
      {may('billing:write') && <DepositForm account={account} onDone={refresh} />}
      <h2>Payments</h2>
      <ListView<Payment>
        caption="Payments" scope="payments"
        load={(p) => admin.get<Payment[]>(`/payments?${new URLSearchParams({ ...p, account_id: account.id }).toString()}`)}
        columns={payments} rowKey={(p) => p.id} empty="No top-up payments."
      />
      <h2>Ledger</h2>
      <ListView<Transaction>
        caption="Ledger" scope="ledger"
        filters={[{ name: 'type', label: 'Type', options: ['deposit', 'withdraw', 'refund'].map((t) => ({ value: t, label: t })) }]}
        load={(p) => admin.get<Transaction[]>(`/accounts/${account.id}/transactions?${new URLSearchParams(p).toString()}`)}
        columns={[
          { label: 'When', cell: (t) => when(t.created_at) },
          { label: 'Type', cell: (t) => <Badge value={t.type} /> },
          { label: 'Amount', cell: (t) => money(t.amount) },
          { label: 'Description', cell: (t) => t.description },
        ]}
        rowKey={(t) => String(t.id)} empty="No ledger rows."
      />
      <h2>Invoices</h2>
      <ListView<Invoice>
        caption="Invoices" scope="invoices"
        load={(p) => admin.get<Invoice[]>(`/invoices?${new URLSearchParams({ ...p, account_id: account.id }).toString()}`)}
        columns={[
          { label: 'Number', cell: (i) => <a href={`/admin/v1/invoices/${i.id}/pdf`} target="_blank" rel="noopener">{i.number}</a> },
          { label: 'Kind', cell: (i) => <Badge value={i.kind} /> },
          { label: 'Issued', cell: (i) => when(i.issued_at) },
          { label: 'Net', cell: (i) => money(i.net) },
          { label: 'Gross', cell: (i) => money(i.gross) },
          { label: 'Description', cell: (i) => i.reason ? `${i.description} (${i.reason})` : i.description },
        ]}
        rowKey={(i) => i.id} empty="No invoices."
      />
      {confirm.dialog}
    </section>
  );
}
