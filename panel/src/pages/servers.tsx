// Servers: the list (lists carry no live state: a server's page reads it), and the way to create one.
import { useState } from 'preact/hooks';
import { type Envelope, type Money, v2 } from '../api.ts';
import type { Data } from '../api-types.ts';
import { Empty, Loading, Page, Table, useLoad } from '../components/data.tsx';
import { Pager } from '../components/pager.tsx';
import { can, useSession } from '../session.tsx';

/** A server as its own page reads it (a list item has the same fields but `network`, and power_state null). */
export type Server = Data<'getServer'>;

export function specs(s: Server['specs']): string {
  return `${s.cpu_cores} vCPU · ${s.ram_mb / 1024} GB RAM · ${s.storage_gb} GB disk`;
}

export function price(b: Server['billing'] | { amount: string; currency: string } | Money | null): string {
  return b ? `${b.amount} ${b.currency}${'cycle' in b ? ` / ${b.cycle === 'monthly' ? 'month' : b.cycle}` : ''}` : '—';
}

export function ServersPage() {
  const { me } = useSession();
  const [page, setPage] = useState(1);
  const list = useLoad<Envelope<Server[]>>(async () => v2.get<Server[]>(`/servers?page=${page}&per_page=25`), [page]);
  return (
    <Page title="Servers" actions={can(me, 'servers:write') && <a class="btn primary" href="/panel/servers/new">Create server</a>}>
      <Loading state={list}>
        {(e) => e.data.length === 0 ? <Empty>No servers yet.</Empty> : (
          <>
            <Table caption="Servers" head={['Name', 'Status', 'Size', 'Price']}>
              {e.data.map((s) => (
                <tr key={s.id}>
                  <td><a href={`/panel/servers/${s.id}`}>{s.name}</a></td>
                  <td><span class={`badge ${s.status}`}>{s.status}</span></td>
                  <td>{s.plan?.name ?? 'custom'} <span class="muted">{specs(s.specs)}</span></td>
                  <td>{price(s.billing)}</td>
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
