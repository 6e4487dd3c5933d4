// Servers: the list — with each server's live power state, primary IPv4 and location, all from one
// request per page (`include=`; the location names from the catalog, read once) — and the way to
// create one.
import { useState } from 'preact/hooks';
import { type Envelope, type Money, v2 } from '../api.ts';
import type { Data, Item } from '../api-types.ts';
import { allLocations, locationName } from '../catalog.ts';
import { Empty, Loading, Page, Table, useLoad } from '../components/data.tsx';
import { Pager } from '../components/pager.tsx';
import { can, useSession } from '../session.tsx';

/** A server as its own page reads it. */
export type Server = Data<'getServer'>;
/** A list item, asked with every extra (`include=power_state,location,primary_ip`). */
type ListedServer = Item<'listServers'>;

/** The extras the list asks for: without them an item has no address, location or live power state. */
export const LIST_INCLUDE = 'power_state,location,primary_ip';

export function specs(s: Server['specs']): string {
  return `${s.cpu_cores} vCPU · ${s.ram_mb / 1024} GB RAM · ${s.storage_gb} GB disk`;
}

export function price(b: Server['billing'] | { amount: string; currency: string } | Money | null): string {
  return b ? `${b.amount} ${b.currency}${'cycle' in b ? ` / ${b.cycle === 'monthly' ? 'month' : b.cycle}` : ''}` : '—';
}

export function ServersPage() {
  const { me } = useSession();
  const [page, setPage] = useState(1);
  const list = useLoad<Envelope<ListedServer[]>>(async () => v2.get<ListedServer[]>(`/servers?page=${page}&per_page=25&include=${LIST_INCLUDE}`), [page]);
  const locations = useLoad(allLocations);
  return (
    <Page title="Servers" actions={can(me, 'servers:write') && <a class="btn primary" href="/panel/servers/new">Create server</a>}>
      <Loading state={list}>
        {(e) => e.data.length === 0 ? <Empty>No servers yet.</Empty> : (
          <>
            <Table caption="Servers" stack head={['Name', 'Status', 'Power', 'IPv4', 'Location', 'Size', 'Price']}>
              {e.data.map((s) => (
                <tr key={s.id}>
                  <td><a href={`/panel/servers/${s.id}`}>{s.name}</a></td>
                  <td><span class={`badge ${s.status}`}>{s.status}</span></td>
                  <td>{s.power_state ? <span class={`badge ${s.power_state}`}>{s.power_state}</span> : '—'}</td>
                  <td>{s.primary_ip ? <code>{s.primary_ip}</code> : '—'}</td>
                  <td>{locationName(locations.data, s.location_id)}</td>
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
