// Settings (right settings): the setup checklist (GET /admin/v1/setup) — what the installation
// still lacks before a customer can buy a server, each with what provides it — and the links to
// the settings other pages hold.
import { admin } from '../api.ts';
import { Badge } from '../components/actions.tsx';
import { Loading, Notice, Page, Table, useLoad } from '../components/data.tsx';
import { useCan } from '../session.tsx';

interface Setup { ready: boolean; compute_driver: string; checks: { item: string; ready: boolean; detail: string; fix: string | null }[] }

const WHERE: Record<string, string> = {
  locations: '/admin/catalog/locations', plans: '/admin/catalog/plans', os_images: '/admin/catalog/operating-systems',
  nodes: '/admin/nodes', ip_pools: '/admin/ip-pools', invoice_settings: '/admin/billing/invoice-settings',
};

export function SettingsPage() {
  const may = useCan();
  const state = useLoad(async () => (await admin.get<Setup>('/setup')).data, []);
  return (
    <Page title="Settings">
      <h2>Setup checklist</h2>
      <Loading state={state}>
        {(s) => (
          <>
            {s.ready ? <Notice kind="success">Ready: customers can buy servers.</Notice> : <Notice kind="warning">Not ready yet: see what is missing below.</Notice>}
            <p class="small muted">Compute driver: {s.compute_driver}</p>
            <Table caption="Setup checklist" head={['Item', 'State', 'Detail', 'What provides it']}>
              {s.checks.map((c) => (
                <tr key={c.item}>
                  <td>{WHERE[c.item] ? <a href={WHERE[c.item]}>{c.item.replace(/_/g, ' ')}</a> : c.item.replace(/_/g, ' ')}</td>
                  <td><Badge value={c.ready ? 'completed' : 'pending'} /> {c.ready ? 'ready' : 'missing'}</td>
                  <td>{c.detail}</td>
                  <td>{c.fix ? <code class="small">{c.fix}</code> : '—'}</td>
                </tr>
              ))}
            </Table>
          </>
        )}
      </Loading>
      <h2>Elsewhere</h2>
      <ul>
        <li><a href="/admin/settings/branding">Branding</a>: the name, logo and colour customers see</li>
        {may('billing:read') && <li><a href="/admin/billing/invoice-settings">Invoice settings</a>: what invoices print about you</li>}
        {may('billing:read') && <li><a href="/admin/billing/tax-rates">Tax rates</a></li>}
        {may('catalog:read') && <li><a href="/admin/catalog">Catalog</a>: plans, locations, OS images, prices</li>}
      </ul>
    </Page>
  );
}
