// Top up the balance: an amount, then the payment provider's checkout (the simulated one, or
// Stripe), which sends the customer back here with the payment's outcome.
import { useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import type { PanelData } from '../api-types.ts';
import { money, panel } from '../api.ts';
import { Loading, Notice, Page, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, useForm } from '../../../ui/form.tsx';
import { SubNav } from '../components/sub-nav.tsx';

type Payment = PanelData<'GET /billing/top-ups/{id}'>;

function Outcome({ id }: { id: string }) {
  const payment = useLoad(async () => {
    const p = (await panel.get<Payment>(`/billing/top-ups/${encodeURIComponent(id)}`)).data;
    // Back before the provider's confirmation arrived: ask it once.
    return p.status === 'pending' ? (await panel.post<Payment>(`/billing/top-ups/${encodeURIComponent(id)}/refresh`)).data : p;
  }, [id]);
  return (
    <Loading state={payment}>
      {(p) => p.status === 'paid'
        ? <Notice kind="success">Paid: {money(p.amount)} was added to your balance (total charged {money(p.total)}).{p.invoice_id ? <> <a href="/panel/billing/invoices">See the invoice</a>.</> : null}</Notice>
        : p.status === 'pending'
          ? <Notice>The payment of {money(p.total)} is not confirmed yet; this page shows it once it is. <button type="button" class="link" onClick={() => void payment.reload()}>Check again</button></Notice>
          : <Notice kind="warning">The payment was {p.status}{p.failure ? `: ${p.failure}` : ''}. Nothing was charged.</Notice>}
    </Loading>
  );
}

export function TopUpPage() {
  const { query } = useRoute();
  const [amount, setAmount] = useState('');
  const f = useForm();
  return (
    <Page title="Top up">
      <SubNav section="/panel/billing" />
      {query.payment && <Outcome id={query.payment} />}
      <Form label="Top up" onSubmit={() => f.submit(async () => {
        const started = (await panel.post<Payment & { checkout_url: string }>('/billing/top-ups', { amount: amount.trim() })).data;
        window.location.assign(started.checkout_url);
      })}>
        <Field label="Amount" name="amount" inputMode="decimal" value={amount} onValue={setAmount} error={f.field('amount')}
          hint="In USD, e.g. 50.00: what your balance is credited (tax is added at checkout)" required />
        <FormError error={f.error} fields={['amount']} />
        <Button busy={f.busy}>Top up</Button>
      </Form>
    </Page>
  );
}
