// Web hosting: order (domain, package, cycle) and renew at the prices the API names first, the accounts with cancel, and each
// account's own page (site, SFTP, databases: hosting-site.tsx).
import { useState } from 'preact/hooks';
import type { Item } from '../api-types.ts';
import { v2, when } from '../api.ts';
import { Empty, Loading, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, Select, useForm } from '../../../ui/form.tsx';
import { can, useSession } from '../session.tsx';
import { BuyButton, ConfirmCharge, useCharge } from '../components/charge.tsx';

type Hosting = Item<'listWebHosting'>;

function Order({ onDone }: { onDone(): void }) {
  const packages = useLoad(async () => (await v2.get<Item<'listWebHostingPackages'>[]>('/web-hosting-packages?per_page=100')).data);
  const [domain, setDomain] = useState('');
  const [pkg, setPkg] = useState('');
  const [cycle, setCycle] = useState('monthly');
  const f = useForm();
  const first = packages.data?.[0]?.id;
  // The price depends on the package and cycle only: a stand-in domain prices it while one is typed.
  const body = (exact: boolean) => ({ domain: exact ? domain.trim() : `price-check-${Date.now()}.example.com`, package_id: Number(pkg || first), billing_cycle: cycle });
  const charge = useCharge((exact) => (first === undefined ? null : v2.post('/web-hosting', body(exact), { dryRun: true })), [first, pkg, cycle, domain]);
  return (
    <Loading state={packages}>
      {(list) => (
        <Form label="Order web hosting" onSubmit={() => f.submit(charge.ask)}>
          <Field label="Domain" name="domain" value={domain} onValue={setDomain} error={f.field('domain')} hint="The site's main domain, e.g. example.com" required />
          <div class="row">
            <Select label="Package" name="package_id" value={pkg || String(list[0]?.id ?? '')} onValue={setPkg} error={f.field('package_id')}
              options={list.map((p) => ({ value: String(p.id), label: p.name }))} />
            <Select label="Billing cycle" name="billing_cycle" value={cycle} onValue={setCycle} error={f.field('billing_cycle')}
              options={[{ value: 'monthly', label: 'Monthly' }, { value: 'yearly', label: 'Yearly' }]} />
          </div>
          <BuyButton charge={charge} busy={f.busy}>Order hosting</BuyButton>
          <ConfirmCharge charge={charge} busy={f.busy} what={<>Hosting for <strong>{domain.trim()}</strong> ({list.find((p) => String(p.id) === (pkg || String(first)))?.name}, {cycle})</>}
            onConfirm={() => f.submit(async () => {
              await v2.post('/web-hosting', body(true), { idempotent: true });
              charge.cancel();
              setDomain('');
              onDone();
            })} />
          <FormError error={f.error} fields={['domain', 'package_id', 'billing_cycle']} />
        </Form>
      )}
    </Loading>
  );
}

/** Renewing one account: the next cycle, its price named by the API before the confirmation. */
function Renew({ h, onDone }: { h: Hosting; onDone(): void }) {
  const f = useForm();
  const charge = useCharge(() => v2.post(`/web-hosting/${h.id}/renew`, {}, { dryRun: true }), [h.id, h.billing?.next_billing_at]);
  return (
    <>
      <BuyButton charge={charge} busy={f.busy} type="button" label={`Renew ${h.domain}`} onClick={() => void f.submit(charge.ask)}>Renew</BuyButton>
      <ConfirmCharge charge={charge} busy={f.busy} what={<>Renewing hosting for <strong>{h.domain}</strong></>} onConfirm={() => f.submit(async () => {
        await v2.post(`/web-hosting/${h.id}/renew`, {}, { idempotent: true });
        charge.cancel();
        onDone();
      })} />
      <FormError error={f.error} />
    </>
  );
}

export function HostingPage() {
  const { me } = useSession();
  const list = useLoad(async () => (await v2.get<Hosting[]>('/web-hosting?per_page=100')).data);
  const [cancelling, setCancelling] = useState<string | null>(null);
  const a = useForm();
  const writable = can(me, 'hosting:write');
  return (
    <Page title="Web hosting">
      {writable && <><h2>Order web hosting</h2><Order onDone={() => void list.reload()} /></>}
      <h2>Your hosting</h2>
      <FormError error={a.error} />
      <Loading state={list}>
        {(rows) => rows.length === 0 ? <Empty>No web hosting yet.</Empty> : (
          <Table caption="Web hosting" head={['Domain', 'Package', 'Status', 'Next charge', '']}>
            {rows.map((h) => (
              <tr key={h.id}>
                <td>{h.domain}</td>
                <td>{h.plan.name}</td>
                <td><span class={`badge ${h.status}`}>{h.status}</span></td>
                <td>{when(h.billing?.next_billing_at)}</td>
                <td class="actions">{(h.status === 'active' || h.status === 'suspended') && <a class="btn plain" href={`/panel/web-hosting/${h.id}`} aria-label={`Manage ${h.domain}`}>Manage</a>}
                  {writable && h.status === 'active' && <>
                  <Renew h={h} onDone={() => void list.reload()} />
                  {cancelling === h.id
                    ? <span class="confirm">Cancel {h.domain}? <Button type="button" kind="danger" busy={a.busy} onClick={() => a.submit(async () => { await v2.post(`/web-hosting/${h.id}/cancel`, {}); setCancelling(null); await list.reload(); })}>Confirm cancel</Button>
                      <Button type="button" kind="plain" onClick={() => setCancelling(null)}>Keep</Button></span>
                    : <Button type="button" kind="plain" label={`Cancel ${h.domain}`} onClick={() => setCancelling(h.id)}>Cancel</Button>}
                </>}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loading>
    </Page>
  );
}
