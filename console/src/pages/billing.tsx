// Billing (right billing): invoices and credit notes (a refund's), top-up payments (a pending one
// asked of the provider again; a paid one's deposit refunded with a credit note), accounts with
// unpaid charges, the tax rate table and what invoices print about the operator.
import { useState } from 'preact/hooks';
import { admin, qs, when } from '../api.ts';
import { Badge, type Money, SubNav, eachRow, money, useConfirm } from '../components/actions.tsx';
import { ConfirmDialog } from '../components/dialog.tsx';
import { Empty, Loading, Notice, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, useForm } from '../../../ui/form.tsx';
import { type Column, ListView } from '../components/list.tsx';
import { useCan } from '../session.tsx';

function Tabs() {
  return (
    <SubNav label="Billing" links={[
      { href: '/admin/billing', label: 'Invoices' },
      { href: '/admin/billing/payments', label: 'Payments' },
      { href: '/admin/billing/overdue', label: 'Overdue accounts' },
      { href: '/admin/billing/tax-rates', label: 'Tax rates' },
      { href: '/admin/billing/invoice-settings', label: 'Invoice settings' },
    ]} />
  );
}

interface Invoice { id: string; number: string; kind: 'invoice' | 'credit_note'; account_id: string; issued_at: string; net: Money; tax: Money; gross: Money; description: string; reason: string | null }

export function InvoicesPage() {
  const columns: Column<Invoice>[] = [
    { label: 'Number', cell: (i) => <a href={`/admin/v1/invoices/${i.id}/pdf`} target="_blank" rel="noopener">{i.number}</a> },
    { label: 'Kind', cell: (i) => (i.kind === 'credit_note' ? 'credit note (refund)' : 'invoice') },
    { label: 'Account', cell: (i) => <a href={`/admin/accounts/${i.account_id}`}><code>{i.account_id}</code></a> },
    { label: 'Issued', cell: (i) => when(i.issued_at) },
    { label: 'Net', cell: (i) => money(i.net) },
    { label: 'Tax', cell: (i) => money(i.tax) },
    { label: 'Gross', cell: (i) => money(i.gross) },
    { label: 'Description', cell: (i) => <span class="small">{i.description}{i.reason ? ` — ${i.reason}` : ''}</span> },
  ];
  return (
    <Page title="Billing">
      <Tabs />
      <ListView<Invoice> caption="Invoices and credit notes" search="Account id"
        filters={[{ name: 'kind', label: 'Kind', options: [{ value: 'invoice', label: 'invoices' }, { value: 'credit_note', label: 'credit notes (refunds)' }] }]}
        load={(p) => admin.get<Invoice[]>(`/invoices${qs({ account_id: p.q, kind: p.kind, page: p.page, per_page: 25 })}`)}
        columns={columns} rowKey={(i) => i.id} empty="No invoice matches." />
    </Page>
  );
}

interface Payment { id: string; account_id: string; status: string; amount: Money; tax: Money; total: Money; provider: string; deposit_id: number | null; invoice_id: string | null; failure: string | null; created_at: string; settled_at: string | null }

function RefundDialog({ payment, onClose, onDone }: { payment: Payment; onClose(): void; onDone(msg: string): void }) {
  const [amount, setAmount] = useState(payment.amount.amount);
  const [reason, setReason] = useState('');
  return (
    <ConfirmDialog open title={`Refund top-up ${payment.id}`} confirm="Refund" danger onClose={onClose}
      onConfirm={async () => {
        const note = (await admin.post<Invoice>(`/deposits/${payment.deposit_id}/refunds`, { amount, ...(reason ? { reason } : {}) })).data;
        onDone(`Refunded ${money(note.net)}: credit note ${note.number}.`);
      }}>
      <p>Takes the amount off the account&apos;s balance, has {payment.provider} pay it back, and issues a credit note.</p>
      <Field label="Amount" name="amount" inputMode="decimal" value={amount} onValue={setAmount} hint={`Up to ${money(payment.amount)} (net of tax)`} />
      <Field label="Reason" name="reason" value={reason} onValue={setReason} />
    </ConfirmDialog>
  );
}

export function PaymentsPage() {
  const may = useCan();
  const [version, setVersion] = useState(0);
  const [refunding, setRefunding] = useState<Payment | null>(null);
  const confirm = useConfirm(() => setVersion((v) => v + 1));
  const write = may('billing:write');
  const refresh = (p: Payment) => admin.post<Payment>(`/payments/${p.id}/refresh`);
  const columns: Column<Payment>[] = [
    { label: 'Payment', cell: (p) => <code>{p.id}</code> },
    { label: 'Account', cell: (p) => <a href={`/admin/accounts/${p.account_id}`}><code>{p.account_id}</code></a> },
    { label: 'Status', cell: (p) => <><Badge value={p.status} />{p.failure && <><br /><span class="small">{p.failure}</span></>}</> },
    { label: 'Amount', cell: (p) => money(p.amount) },
    { label: 'Total', cell: (p) => money(p.total) },
    { label: 'Provider', cell: (p) => p.provider },
    { label: 'Created', cell: (p) => when(p.created_at) },
    { label: 'Invoice', cell: (p) => (p.invoice_id ? <a href={`/admin/v1/invoices/${p.invoice_id}/pdf`} target="_blank" rel="noopener">PDF</a> : '—') },
    ...(write ? [{
      label: 'Actions',
      cell: (p: Payment) => (
        <div class="row-actions">
          {p.status === 'pending' && <Button type="button" kind="plain" label={`Ask the provider about ${p.id}`} onClick={() => confirm.ask({
            title: `Ask ${p.provider} about ${p.id}?`, confirm: 'Refresh payment', body: <p>A paid one is credited once.</p>,
            run: async () => `${p.id} is ${(await refresh(p)).data.status}.`,
          })}>Refresh</Button>}
          {p.status === 'paid' && p.deposit_id !== null && <Button type="button" kind="danger" label={`Refund ${p.id}`} onClick={() => setRefunding(p)}>Refund</Button>}
        </div>
      ),
    }] : []),
  ];
  return (
    <Page title="Payments">
      <Tabs />
      {confirm.notice && <Notice kind="success">{confirm.notice}</Notice>}
      <ListView<Payment> key={version} caption="Payments" search="Account id"
        filters={[{ name: 'status', label: 'Status', options: ['pending', 'paid', 'declined', 'expired', 'failed'].map((s) => ({ value: s, label: s })) }]}
        load={(p) => admin.get<Payment[]>(`/payments${qs({ account_id: p.q, status: p.status, page: p.page, per_page: 25 })}`)}
        columns={columns} rowKey={(p) => p.id}
        bulk={[{
          label: 'Refresh', right: 'billing:write',
          describe: (rows) => <p>Ask the provider how {rows.length} payment{rows.length === 1 ? '' : 's'} stand; only pending ones are asked.</p>,
          run: (rows) => eachRow(rows, (p) => p.id, 'Refreshed', refresh),
        }]}
        empty="No payment matches." />
      {refunding && <RefundDialog payment={refunding} onClose={() => setRefunding(null)}
        onDone={(msg) => { confirm.setNotice(msg); setRefunding(null); setVersion((v) => v + 1); }} />}
      {confirm.dialog}
    </Page>
  );
}

interface Overdue { account_id: string; email: string; balance: Money; due: Money; charges: number; oldest_due_since: string }

export function OverduePage() {
  return (
    <Page title="Overdue accounts">
      <Tabs />
      <ListView<Overdue> caption="Accounts with unpaid charges"
        load={(p) => admin.get<Overdue[]>(`/billing/overdue${qs({ page: p.page, per_page: 25 })}`)}
        columns={[
          { label: 'Account', cell: (o) => <a href={`/admin/accounts/${o.account_id}`}>{o.email}</a> },
          { label: 'Balance', cell: (o) => money(o.balance) },
          { label: 'Due', cell: (o) => money(o.due) },
          { label: 'Unpaid charges', cell: (o) => o.charges },
          { label: 'Due since', cell: (o) => when(o.oldest_due_since) },
        ]}
        rowKey={(o) => o.account_id} empty="No account owes anything." />
    </Page>
  );
}

interface TaxRate { country: string; rate: string; label: string; updated_at: string }

export function TaxRatesPage() {
  const may = useCan();
  const rates = useLoad(async () => (await admin.get<TaxRate[]>('/tax-rates')).data, []);
  const confirm = useConfirm(() => rates.reload());
  const f = useForm();
  const [v, setV] = useState({ country: '', rate: '', label: 'VAT' });
  const write = may('billing:write');
  return (
    <Page title="Tax rates">
      <Tabs />
      {confirm.notice && <Notice kind="success">{confirm.notice}</Notice>}
      <Loading state={rates}>
        {(rows) => (rows.length === 0 ? <Empty>No tax rate: customers pay none.</Empty> : (
          <Table caption="Tax rates" head={['Country', 'Rate', 'Label', 'Changed', ...(write ? ['Actions'] : [])]}>
            {rows.map((r) => (
              <tr key={r.country}>
                <td>{r.country}</td><td>{r.rate}%</td><td>{r.label}</td><td>{when(r.updated_at)}</td>
                {write && <td><Button type="button" kind="danger" label={`Delete the rate of ${r.country}`} onClick={() => confirm.ask({
                  title: `Delete the tax rate of ${r.country}?`, confirm: 'Delete rate', danger: true, body: <p>Customers of {r.country} then pay no tax.</p>,
                  run: async () => { await admin.del(`/tax-rates/${r.country}`); return `${r.country}: no tax from now on.`; },
                })}>Delete</Button></td>}
              </tr>
            ))}
          </Table>
        ))}
      </Loading>
      {write && (
        <Form label="Set a tax rate" onSubmit={() => f.submit(async () => {
          const r = (await admin.put<TaxRate>(`/tax-rates/${encodeURIComponent(v.country)}`, { rate: v.rate, ...(v.label ? { label: v.label } : {}) })).data;
          confirm.setNotice(`${r.country}: ${r.rate}% ${r.label}.`);
          setV({ country: '', rate: '', label: 'VAT' });
          await rates.reload();
        })}>
          <h2>Set a rate</h2>
          <Field label="Country" name="country" value={v.country} onValue={(x) => setV({ ...v, country: x })} hint="Two letters, e.g. DE" error={f.field('country')} />
          <Field label="Rate (%)" name="rate" inputMode="decimal" value={v.rate} onValue={(x) => setV({ ...v, rate: x })} error={f.field('rate')} />
          <Field label="Label" name="label" value={v.label} onValue={(x) => setV({ ...v, label: x })} error={f.field('label')} />
          <FormError error={f.error} fields={['country', 'rate', 'label']} />
          <Button busy={f.busy}>Set rate</Button>
        </Form>
      )}
      {confirm.dialog}
    </Page>
  );
}

interface Settings { company_name: string; address: string; tax_id: string; invoice_prefix: string; footer: string; updated_at: string }

export function InvoiceSettingsPage() {
  const may = useCan();
  const state = useLoad(async () => (await admin.get<Settings>('/invoice-settings')).data, []);
  return (
    <Page title="Invoice settings">
      <Tabs />
      <Loading state={state}>{(s) => <SettingsForm s={s} write={may('billing:write')} />}</Loading>
    </Page>
  );
}

function SettingsForm({ s, write }: { s: Settings; write: boolean }) {
  const f = useForm();
  const [v, setV] = useState({ company_name: s.company_name, address: s.address, tax_id: s.tax_id, invoice_prefix: s.invoice_prefix, footer: s.footer });
  const [saved, setSaved] = useState<string | null>(null);
  const set = (k: keyof typeof v) => (x: string) => { setSaved(null); setV({ ...v, [k]: x }); };
  return (
    <Form label="Invoice settings" onSubmit={() => f.submit(async () => {
      const r = (await admin.post<Settings>('/invoice-settings', v)).data;
      setSaved(`Saved ${when(r.updated_at)}; invoices already issued keep what they printed.`);
    })}>
      {saved && <Notice kind="success">{saved}</Notice>}
      <Field label="Company name" name="company_name" value={v.company_name} onValue={set('company_name')} readOnly={!write} error={f.field('company_name')} />
      <Field label="Address" name="address" multiline value={v.address} onValue={set('address')} readOnly={!write} error={f.field('address')} />
      <Field label="Tax id" name="tax_id" value={v.tax_id} onValue={set('tax_id')} readOnly={!write} error={f.field('tax_id')} />
      <Field label="Invoice number prefix" name="invoice_prefix" value={v.invoice_prefix} onValue={set('invoice_prefix')} readOnly={!write} hint="Capital letters and digits" error={f.field('invoice_prefix')} />
      <Field label="Footer" name="footer" multiline value={v.footer} onValue={set('footer')} readOnly={!write} error={f.field('footer')} />
      <FormError error={f.error} fields={Object.keys(v)} />
      {write && <Button busy={f.busy}>Save</Button>}
    </Form>
  );
}
