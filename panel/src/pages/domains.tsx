// Domains: check a name, register it (or transfer one in) at the price the API names, and the list.
import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { type Envelope, v2, when } from '../api.ts';
import { Empty, Loading, Notice, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, Select, useForm } from '../../../ui/form.tsx';
import { Pager } from '../components/pager.tsx';
import { BuyButton, ConfirmCharge, useCharge } from '../components/charge.tsx';
import { can, useSession } from '../session.tsx';
import type { Data } from '../api-types.ts';

export type Domain = Data<'getDomain'>;

function Register() {
  const { route } = useLocation();
  const [name, setName] = useState('');
  const [years, setYears] = useState('1');
  const [checked, setChecked] = useState<{ domain: string; available: boolean } | null>(null);
  const c = useForm();
  const r = useForm();
  const body = () => ({ domain: checked?.domain ?? '', years: Number(years) });
  const charge = useCharge(() => (checked?.available ? v2.post('/domains', body(), { dryRun: true }) : null), [checked, years]);
  return (
    <>
      <Form label="Check a domain" onSubmit={() => c.submit(async () => {
        setChecked((await v2.get<Data<'checkDomain'>>(`/domains/check?domain=${encodeURIComponent(name.trim())}`)).data);
      })}>
        <div class="row inline">
          <Field label="Domain name" name="domain" value={name} onValue={(v) => { setName(v); setChecked(null); }} error={c.field('domain')} hint="e.g. example.com" required />
          <Button busy={c.busy}>Check</Button>
        </div>
        <FormError error={c.error} fields={['domain']} />
      </Form>
      {checked && (checked.available ? (
        <Form label="Register domain" onSubmit={() => r.submit(charge.ask)}>
          <Notice kind="success">{checked.domain} is available.</Notice>
          <div class="row inline">
            <Select label="Years" name="years" value={years} onValue={setYears} error={r.field('years')} options={[1, 2, 3, 5, 10].map((y) => ({ value: String(y), label: String(y) }))} />
            <BuyButton charge={charge} busy={r.busy}>Register {checked.domain}</BuyButton>
          </div>
          <ConfirmCharge charge={charge} busy={r.busy} what={<>Registering <strong>{checked.domain}</strong> for {years} year{years === '1' ? '' : 's'}</>}
            onConfirm={() => r.submit(async () => {
              const d = await v2.post<Domain>('/domains', body(), { idempotent: true });
              route(`/panel/domains/${d.data.id}`);
            })} />
          <FormError error={r.error} fields={['years']} />
        </Form>
      ) : <Notice kind="warning">{checked.domain} is taken.</Notice>)}
    </>
  );
}

/** A domain held at another registrar, moved here with its auth code (the transfer price includes a year). */
function Transfer() {
  const { route } = useLocation();
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [years, setYears] = useState('1');
  const f = useForm();
  const body = (exact: boolean) => ({ domain: name.trim(), auth_code: exact || code ? code : 'price-check', years: Number(years) });
  // The price depends on the name's TLD and the years, not on the code: priced once a name is typed.
  const charge = useCharge((exact) => (exact || /\.[^.]+$/.test(name.trim()) ? v2.post('/domains/transfer', body(exact), { dryRun: true }) : null), [name, years]);
  return (
    <Form label="Transfer a domain" onSubmit={() => f.submit(charge.ask)}>
      <div class="row">
        <Field label="Domain to transfer" name="domain" value={name} onValue={setName} error={f.field('domain')} hint="Registered at another registrar" required />
        <Field label="Auth code" name="auth_code" value={code} onValue={setCode} error={f.field('auth_code')} hint="From the current registrar" required />
        <Select label="Years to add" name="years" value={years} onValue={setYears} error={f.field('years')} options={[1, 2, 3, 5].map((y) => ({ value: String(y), label: String(y) }))} />
      </div>
      <BuyButton charge={charge} busy={f.busy} idle="Type the domain to see its price">Transfer domain</BuyButton>
      <ConfirmCharge charge={charge} busy={f.busy} what={<>Transferring <strong>{name.trim()}</strong></>}
        onConfirm={() => f.submit(async () => {
          const d = await v2.post<Domain>('/domains/transfer', body(true), { idempotent: true });
          route(`/panel/domains/${d.data.id}`);
        })} />
      <FormError error={f.error} fields={['domain', 'auth_code', 'years']} />
    </Form>
  );
}

export function DomainsPage() {
  const { me } = useSession();
  const [page, setPage] = useState(1);
  const list = useLoad<Envelope<Domain[]>>(async () => v2.get<Domain[]>(`/domains?page=${page}&per_page=25`), [page]);
  return (
    <Page title="Domains">
      {can(me, 'domains:write') && <><h2>Register a domain</h2><Register /><h2>Transfer a domain in</h2><Transfer /></>}
      <h2>Your domains</h2>
      <Loading state={list}>
        {(e) => e.data.length === 0 ? <Empty>No domains yet.</Empty> : (
          <>
            <Table caption="Domains" head={['Domain', 'Status', 'Expires', 'Auto-renew', 'Renewal']}>
              {e.data.map((d) => (
                <tr key={d.id}>
                  <td><a href={`/panel/domains/${d.id}`}>{d.domain}</a></td>
                  <td><span class={`badge ${d.status}`}>{d.status}</span></td>
                  <td>{when(d.expires_at)}</td>
                  <td>{d.auto_renew ? 'on' : 'off'}</td>
                  <td>{d.billing.renewal.amount} {d.billing.renewal.currency}/year</td>
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
