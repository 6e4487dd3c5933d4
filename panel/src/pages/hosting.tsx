// Web hosting: order (domain, package, cycle), the accounts with renew and cancel, and each
// account's own page (site, SFTP, databases: hosting-site.tsx).
import { useState } from 'preact/hooks';
import type { Item } from '../api-types.ts';
import { v2, when } from '../api.ts';
import { Empty, Loading, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, Select, useForm } from '../components/form.tsx';
import { can, useSession } from '../session.tsx';

function Order({ onDone }: { onDone(): void }) {
  const packages = useLoad(async () => (await v2.get<Item<'listWebHostingPackages'>[]>('/web-hosting-packages?per_page=100')).data);
  const [domain, setDomain] = useState('');
  const [pkg, setPkg] = useState('');
  const [cycle, setCycle] = useState('monthly');
  const f = useForm();
  return (
    <Loading state={packages}>
      {(list) => (
        <Form label="Order web hosting" onSubmit={() => f.submit(async () => {
          await v2.post('/web-hosting', { domain: domain.trim(), package_id: Number(pkg || list[0]?.id), billing_cycle: cycle }, { idempotent: true });
          setDomain('');
          onDone();
        })}>
          <Field label="Domain" name="domain" value={domain} onValue={setDomain} error={f.field('domain')} hint="The site's main domain, e.g. example.com" required />
          <div class="row">
            <Select label="Package" name="package_id" value={pkg || String(list[0]?.id ?? '')} onValue={setPkg} error={f.field('package_id')}
              options={list.map((p) => ({ value: String(p.id), label: p.name }))} />
            <Select label="Billing cycle" name="billing_cycle" value={cycle} onValue={setCycle} error={f.field('billing_cycle')}
              options={[{ value: 'monthly', label: 'Monthly' }, { value: 'yearly', label: 'Yearly' }]} />
          </div>
          <FormError error={f.error} fields={['domain', 'package_id', 'billing_cycle']} />
          <Button busy={f.busy}>Order hosting</Button>
        </Form>
      )}
    </Loading>
  );
}

export function HostingPage() {
  const { me } = useSession();
  const list = useLoad(async () => (await v2.get<Item<'listWebHosting'>[]>('/web-hosting?per_page=100')).data);
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
                  <Button type="button" kind="plain" busy={a.busy} label={`Renew ${h.domain}`} onClick={() => a.submit(async () => { await v2.post(`/web-hosting/${h.id}/renew`, {}, { idempotent: true }); await list.reload(); })}>Renew</Button>
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
