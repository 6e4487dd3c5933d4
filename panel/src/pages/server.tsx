// One server: its live state and facts, power actions, console, resize, snapshots, addresses with
// reverse DNS (each charge priced by the API and confirmed first), and delete (the refund shown
// before confirming). Long work shows its operation's progress.
import { useLocation, useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import { type Money, panel, v2, when } from '../api.ts';
import { Empty, Loading, Notice, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, Select, useForm } from '../../../ui/form.tsx';
import { type Operation, OperationProgress, useOperation } from '../components/operation.tsx';
import { can, useSession } from '../session.tsx';
import { BuyButton, ConfirmCharge, useCharge } from '../components/charge.tsx';
import { allLocations, allOperatingSystems, locationName, osName } from '../catalog.ts';
import { type Server, price, specs } from './servers.tsx';
import type { Data, Item } from '../api-types.ts';

type Snapshot = Item<'listServerSnapshots'>;
type Ip = Item<'listServerIps'>;

function Power({ s, writable, onOperation }: { s: Server; writable: boolean; onOperation(op: Operation): void }) {
  const f = useForm();
  const act = (verb: string) => f.submit(async () => onOperation((await v2.post<Data<'runServerAction'>>(`/servers/${s.id}/actions/${verb}`)).data.operation));
  const running = s.power_state === 'running';
  return (
    <div class="buttons">
      {writable && <>
        <Button type="button" kind="plain" busy={f.busy} disabled={running} onClick={() => act('start')}>Start</Button>
        <Button type="button" kind="plain" busy={f.busy} disabled={!running} onClick={() => act('stop')}>Stop</Button>
        <Button type="button" kind="plain" busy={f.busy} disabled={!running} onClick={() => act('reboot')}>Reboot</Button>
      </>}
      <Button type="button" kind="plain" busy={f.busy} onClick={() => f.submit(async () => {
        const c = (await v2.get<Data<'getServerConsole'>>(`/servers/${s.id}/console`)).data;
        window.open(c.viewer_url, '_blank', 'noopener');
      })}>Open console</Button>
      <FormError error={f.error} />
    </div>
  );
}

function Resize({ s, onOperation }: { s: Server; onOperation(op: Operation): void }) {
  const [ram, setRam] = useState(String(s.specs.ram_mb / 1024));
  const [disk, setDisk] = useState(String(s.specs.storage_gb));
  const f = useForm();
  const body = () => {
    const b: Record<string, number> = {};
    if (Number(ram) !== s.specs.ram_mb / 1024) b.ram_gb = Number(ram);
    if (Number(disk) !== s.specs.storage_gb) b.disk_gb = Number(disk);
    return b;
  };
  // Nothing changed: nothing to price (the click still asks, and the API names what is wrong).
  const charge = useCharge((exact) => (exact || Object.keys(body()).length > 0 ? v2.post(`/servers/${s.id}/actions/resize`, body(), { dryRun: true }) : null),
    [s.id, s.specs.ram_mb, s.specs.storage_gb, ram, disk]);
  return (
    <Form label="Resize" onSubmit={() => f.submit(charge.ask)}>
      <div class="row">
        <Field label="RAM (GB)" name="ram_gb" inputMode="numeric" value={ram} onValue={setRam} error={f.field('ram_gb')} />
        <Field label="Disk (GB)" name="disk_gb" inputMode="numeric" value={disk} onValue={setDisk} error={f.field('disk_gb')} hint="Disks only grow" />
      </div>
      <p class="muted">The growth is charged now, prorated over the rest of the month.</p>
      <BuyButton charge={charge} busy={f.busy} idle="Change a size to see its price">Resize</BuyButton>
      <ConfirmCharge charge={charge} busy={f.busy} what={<>Resizing <strong>{s.name}</strong> to {ram} GB RAM and {disk} GB disk</>} onConfirm={() => f.submit(async () => {
        const op = (await v2.post<Data<'runServerAction'>>(`/servers/${s.id}/actions/resize`, body())).data.operation;
        charge.cancel();
        onOperation(op);
      })} />
      <FormError error={f.error} fields={['ram_gb', 'disk_gb']} />
    </Form>
  );
}

function Snapshots({ s, writable, onOperation, version }: { s: Server; writable: boolean; onOperation(op: Operation): void; version: number }) {
  const list = useLoad(async () => (await v2.get<Snapshot[]>(`/servers/${s.id}/snapshots?per_page=100`)).data, [s.id, version]);
  const [name, setName] = useState('');
  const f = useForm();
  const a = useForm();
  const run = (op: Operation) => { onOperation(op); void list.reload(); };
  // The fee does not depend on the name: a stand-in prices it while one is typed.
  const charge = useCharge((exact) => (writable ? v2.post(`/servers/${s.id}/snapshots`, { name: exact ? name.trim() : 'price-check' }, { dryRun: true }) : null), [s.id, writable, name, version]);
  return (
    <>
      {writable && (
        <Form label="Take a snapshot" onSubmit={() => f.submit(charge.ask)}>
          <div class="row inline">
            <Field label="Snapshot name" name="name" value={name} onValue={setName} error={f.field('name')} required />
            <BuyButton charge={charge} busy={f.busy}>Take snapshot</BuyButton>
          </div>
          <ConfirmCharge charge={charge} busy={f.busy} what={<>Snapshot <strong>{name.trim()}</strong> of {s.name}</>} onConfirm={() => f.submit(async () => {
            const r = await v2.post<Data<'createServerSnapshot'>>(`/servers/${s.id}/snapshots`, { name: name.trim() });
            charge.cancel();
            setName('');
            if (r.data.operation) run(r.data.operation); else await list.reload();
          })} />
          <FormError error={f.error} fields={['name']} />
        </Form>
      )}
      <FormError error={a.error} />
      <Loading state={list}>
        {(rows) => rows.length === 0 ? <Empty>No snapshots.</Empty> : (
          <Table caption="Snapshots" head={['Name', 'Status', 'Taken', '']}>
            {rows.map((n) => (
              <tr key={n.id}>
                <td>{n.name}</td>
                <td><span class={`badge ${n.status}`}>{n.status}</span></td>
                <td>{when(n.created_at)}</td>
                <td class="actions">{writable && <>
                  <Button type="button" kind="plain" busy={a.busy} label={`Restore snapshot ${n.name}`} onClick={() => a.submit(async () => run((await v2.post<Data<'restoreServerSnapshot'>>(`/servers/${s.id}/snapshots/${n.id}/restore`)).data.operation))}>Restore</Button>
                  <Button type="button" kind="plain" busy={a.busy} label={`Delete snapshot ${n.name}`} onClick={() => a.submit(async () => { await v2.del(`/servers/${s.id}/snapshots/${n.id}`); await list.reload(); })}>Delete</Button>
                </>}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loading>
    </>
  );
}

function ReverseDns({ s, ip }: { s: Server; ip: Ip }) {
  const [value, setValue] = useState<string | null>(null);
  const f = useForm();
  const path = `/servers/${s.id}/ips/${encodeURIComponent(ip.address)}/rdns`;
  if (value === null) {
    return <Button type="button" kind="plain" busy={f.busy} label={`Reverse DNS of ${ip.address}`} onClick={() => f.submit(async () => {
      setValue((await v2.get<Data<'getServerIpReverseDns'>>(path)).data.rdns ?? '');
    })}>Reverse DNS</Button>;
  }
  return (
    <Form label={`Reverse DNS of ${ip.address}`} onSubmit={() => f.submit(async () => {
      await v2.put(path, { rdns: value.trim() === '' ? null : value.trim() });
      setValue(null);
    })}>
      <div class="row inline">
        <Field label={`Reverse DNS of ${ip.address}`} name="rdns" value={value} onValue={setValue} error={f.field('rdns')} hint="A host name, or empty for none" />
        <Button busy={f.busy}>Save</Button>
        <Button type="button" kind="plain" onClick={() => setValue(null)}>Cancel</Button>
      </div>
      <FormError error={f.error} fields={['rdns']} />
    </Form>
  );
}

function Addresses({ s, writable, onOperation, version }: { s: Server; writable: boolean; onOperation(op: Operation): void; version: number }) {
  const list = useLoad(async () => (await v2.get<Ip[]>(`/servers/${s.id}/ips?per_page=100`)).data, [s.id, version]);
  const [ipVersion, setIpVersion] = useState('4');
  const f = useForm();
  const d = useForm();
  const charge = useCharge(() => (writable ? v2.post(`/servers/${s.id}/ips`, { version: Number(ipVersion) }, { dryRun: true }) : null), [s.id, writable, ipVersion, version]);
  return (
    <>
      <FormError error={d.error} />
      <Loading state={list}>
        {(rows) => (
          <Table caption="IP addresses" head={['Address', 'Version', 'Type', 'Price', '']}>
            {rows.map((ip) => (
              <tr key={ip.address}>
                <td><code>{ip.address}</code></td>
                <td>IPv{ip.version}</td>
                <td>{ip.type}</td>
                <td>{ip.monthly_price ? `${ip.monthly_price.amount} ${ip.monthly_price.currency}/month` : 'included'}</td>
                <td class="actions">{writable && <>
                  <ReverseDns s={s} ip={ip} />
                  {ip.type !== 'primary' && <Button type="button" kind="plain" busy={d.busy} label={`Remove ${ip.address}`} onClick={() => d.submit(async () => {
                    const r = await v2.del<{ operation?: Operation }>(`/servers/${s.id}/ips/${encodeURIComponent(ip.address)}`);
                    if (r.data?.operation) onOperation(r.data.operation);
                    await list.reload();
                  })}>Remove</Button>}
                </>}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loading>
      {writable && (
        <Form label="Add an address" onSubmit={() => f.submit(charge.ask)}>
          <div class="row inline">
            <Select label="New address" name="version" value={ipVersion} onValue={setIpVersion} options={[{ value: '4', label: 'IPv4' }, { value: '6', label: 'IPv6' }]} />
            <BuyButton charge={charge} busy={f.busy}>Add address</BuyButton>
          </div>
          <ConfirmCharge charge={charge} busy={f.busy} what={<>An extra IPv{ipVersion} address for {s.name}</>} onConfirm={() => f.submit(async () => {
            // Attached before the answer (201): no operation to follow.
            await v2.post<Data<'addServerIp'>>(`/servers/${s.id}/ips`, { version: Number(ipVersion) }, { idempotent: true });
            charge.cancel();
            await list.reload();
          })} />
          <p class="muted">Each extra address is billed monthly.</p>
          <FormError error={f.error} fields={['version']} />
        </Form>
      )}
    </>
  );
}

function Delete({ s }: { s: Server }) {
  const { route } = useLocation();
  const [preview, setPreview] = useState<{ refund: Money; unused_hours: number; period_hours: number } | null>(null);
  const f = useForm();
  if (!preview) {
    return (
      <>
        <FormError error={f.error} />
        <Button type="button" kind="danger" busy={f.busy} onClick={() => f.submit(async () => {
          setPreview((await panel.get<{ refund: Money; unused_hours: number; period_hours: number }>(`/servers/${s.id}/delete-preview`)).data);
        })}>Delete server</Button>
      </>
    );
  }
  return (
    <div class="confirm-box" role="group" aria-label="Confirm delete">
      <p>Delete <strong>{s.name}</strong>? Its disk and snapshots are destroyed. You get <strong>{preview.refund.amount} {preview.refund.currency}</strong> back
        for the {preview.unused_hours} unused hours of its {preview.period_hours}-hour cycle.</p>
      <FormError error={f.error} />
      <div class="buttons">
        <Button type="button" kind="danger" busy={f.busy} onClick={() => f.submit(async () => {
          await v2.del(`/servers/${s.id}`);
          route('/panel/servers');
        })}>Confirm delete</Button>
        <Button type="button" kind="plain" onClick={() => setPreview(null)}>Cancel</Button>
      </div>
    </div>
  );
}

export function ServerPage() {
  const { params, query } = useRoute();
  const id = params.id ?? '';
  const { me } = useSession();
  const server = useLoad(async () => (await v2.get<Server>(`/servers/${encodeURIComponent(id)}`)).data, [id]);
  // Names for the location and OS (the catalog, read once per page load); the page shows ids until they come.
  const names = useLoad(async () => ({ locations: await allLocations(), oses: await allOperatingSystems() }));
  const first = useLoad(async () => (query.operation ? (await v2.get<Operation>(`/operations/${encodeURIComponent(query.operation)}`)).data : null), [query.operation]);
  const [started, setStarted] = useState<Operation | null>(null);
  // Bumped when an operation ends: what it changed (snapshots, addresses) is read again.
  const [version, setVersion] = useState(0);
  const op = useOperation(started ?? first.data ?? null, () => { void server.reload(); setVersion((v) => v + 1); });
  const writable = can(me, 'servers:write');
  const busy = op !== null && (op.status === 'queued' || op.status === 'running');
  return (
    <Page title={server.data?.name ?? 'Server'}>
      <p><a href="/panel/servers">← Servers</a></p>
      <OperationProgress op={op} />
      <Loading state={server}>
        {(s) => (
          <>
            <dl class="facts">
              <div><dt>Status</dt><dd><span class={`badge ${s.status}`}>{s.status}</span></dd></div>
              <div><dt>Power</dt><dd><span class={`badge ${s.power_state}`} aria-label="Power state">{s.power_state}</span></dd></div>
              <div><dt>Address</dt><dd>{s.network.ipv4?.address ?? '—'}{s.network.ipv6 ? <><br />{s.network.ipv6.address}</> : null}</dd></div>
              <div><dt>Size</dt><dd>{s.plan?.name ?? 'custom'} · {specs(s.specs)}</dd></div>
              <div><dt>OS</dt><dd>{osName(names.data?.oses, s.os)}</dd></div>
              <div><dt>Location</dt><dd>{locationName(names.data?.locations, s.location_id)}</dd></div>
              <div><dt>Created</dt><dd>{when(s.created_at)}</dd></div>
              <div><dt>ID</dt><dd><code>{s.id}</code></dd></div>
              <div><dt>Price</dt><dd>{price(s.billing)}{s.billing ? <><br /><span class="muted">next charge {when(s.billing.next_billing_at)}</span></> : null}</dd></div>
            </dl>
            {s.status === 'pending' && <Notice>The server is being built; this page updates when it is ready.</Notice>}
            {s.status === 'active' && (
              <>
                <h2>Power and console</h2>
                <Power s={s} writable={writable && !busy} onOperation={setStarted} />
                {writable && <><h2>Resize</h2><Resize s={s} onOperation={setStarted} /></>}
                <h2>Snapshots</h2>
                <Snapshots s={s} writable={writable && !busy} onOperation={setStarted} version={version} />
                <h2>IP addresses</h2>
                <Addresses s={s} writable={writable} onOperation={setStarted} version={version} />
              </>
            )}
            {writable && s.status !== 'pending' && <><h2>Delete</h2><Delete s={s} /></>}
          </>
        )}
      </Loading>
    </Page>
  );
}
