// VDC: the pool (what the operator set, what VMs use) and its VMs: create, power, delete.
import { useState } from 'preact/hooks';
import { v2 } from '../api.ts';
import { Empty, Loading, Notice, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, Select, useForm } from '../../../ui/form.tsx';
import { type Operation, OperationProgress, useOperation } from '../components/operation.tsx';
import { can, useSession } from '../session.tsx';
import type { Data, Item } from '../api-types.ts';

type Pool = Data<'getVdcResources'>;
type Vm = Item<'listVdcVms'>;

function CreateVm({ onOperation }: { onOperation(op: Operation): void }) {
  const catalog = useLoad(async () => {
    const [l, o] = await Promise.all([v2.get<{ id: number; name: string }[]>('/locations'), v2.get<{ id: number; name: string; available: boolean }[]>('/operating-systems')]);
    return { locations: l.data, oses: o.data.filter((os) => os.available) };
  });
  const [v, setV] = useState({ name: '', password: '', cpu_cores: '1', ram_gb: '1', storage_gb: '20', location_id: '', os_version_id: '' });
  const set = (k: keyof typeof v) => (x: string) => setV({ ...v, [k]: x });
  const f = useForm();
  return (
    <Loading state={catalog}>
      {(c) => (
        <Form label="Create VM" onSubmit={() => f.submit(async () => {
          const r = await v2.post<{ operation: Operation }>('/vdc/vms', {
            name: v.name.trim(), password: v.password, cpu_cores: Number(v.cpu_cores), ram_mb: Number(v.ram_gb) * 1024, storage_gb: Number(v.storage_gb),
            location_id: Number(v.location_id || c.locations[0]?.id), os_version_id: Number(v.os_version_id || c.oses[0]?.id),
          }, { idempotent: true });
          onOperation(r.data.operation);
        })}>
          <Field label="Name" name="name" value={v.name} onValue={set('name')} error={f.field('name')} required />
          <div class="row">
            <Field label="vCPUs" name="cpu_cores" inputMode="numeric" value={v.cpu_cores} onValue={set('cpu_cores')} error={f.field('cpu_cores')} />
            <Field label="RAM (GB)" name="ram_mb" inputMode="numeric" value={v.ram_gb} onValue={set('ram_gb')} error={f.field('ram_mb')} />
            <Field label="Disk (GB)" name="storage_gb" inputMode="numeric" value={v.storage_gb} onValue={set('storage_gb')} error={f.field('storage_gb')} />
          </div>
          <div class="row">
            <Select label="Location" name="location_id" value={v.location_id || String(c.locations[0]?.id ?? '')} onValue={set('location_id')} error={f.field('location_id')} options={c.locations.map((l) => ({ value: String(l.id), label: l.name }))} />
            <Select label="Operating system" name="os_version_id" value={v.os_version_id || String(c.oses[0]?.id ?? '')} onValue={set('os_version_id')} error={f.field('os_version_id')} options={c.oses.map((o) => ({ value: String(o.id), label: o.name }))} />
          </div>
          <Field label="Root password" name="password" type="password" value={v.password} onValue={set('password')} error={f.field('password')} autoComplete="new-password" required />
          <FormError error={f.error} fields={['name', 'password', 'cpu_cores', 'ram_mb', 'storage_gb', 'location_id', 'os_version_id']} />
          <Button busy={f.busy}>Create VM</Button>
        </Form>
      )}
    </Loading>
  );
}

export function VdcPage() {
  const { me } = useSession();
  const pool = useLoad(async () => (await v2.get<Pool>('/vdc/resources')).data);
  const vms = useLoad(async () => (await v2.get<Vm[]>('/vdc/vms?per_page=100')).data);
  const [started, setStarted] = useState<Operation | null>(null);
  const op = useOperation(started, () => { void vms.reload(); void pool.reload(); });
  const a = useForm();
  const writable = can(me, 'vdc:write');
  const act = (vm: Vm, verb: string) => a.submit(async () => setStarted((await v2.post<{ operation: Operation }>(`/vdc/vms/${vm.id}/actions/${verb}`)).data.operation));
  return (
    <Page title="VDC">
      <OperationProgress op={op} />
      <Loading state={pool}>
        {(p) => !p.has_pool ? <Notice>Your account has no VDC pool. Ask your provider for one.</Notice> : (
          <Table caption="Pool" head={['Resource', 'Total', 'Used', 'Available']}>
            {([['vCPUs', p.cpu], ['RAM (MB)', p.ram_mb], ['Disk (GB)', p.storage_gb], ['IPv4', p.ipv4], ['IPv6', p.ipv6], ['Bandwidth (Mbit/s)', p.bandwidth_mbit]] as const).map(([label, b]) => (
              <tr key={label}><td>{label}</td><td>{b.total}</td><td>{b.used}</td><td>{b.available}</td></tr>
            ))}
          </Table>
        )}
      </Loading>
      {writable && pool.data?.has_pool && <><h2>Create a VM</h2><CreateVm onOperation={(o) => { setStarted(o); void vms.reload(); }} /></>}
      <h2>VMs</h2>
      <FormError error={a.error} />
      <Loading state={vms}>
        {(rows) => rows.length === 0 ? <Empty>No VMs.</Empty> : (
          <Table caption="VMs" head={['Name', 'Status', 'Power', 'Address', 'Size', '']}>
            {rows.map((vm) => (
              <tr key={vm.id}>
                <td>{vm.name}</td>
                <td><span class={`badge ${vm.status}`}>{vm.status}</span></td>
                <td><span class={`badge ${vm.power_state}`}>{vm.power_state}</span></td>
                <td>{vm.primary_ip ?? '—'}</td>
                <td>{vm.specs.cpu_cores} vCPU · {vm.specs.ram_mb / 1024} GB · {vm.specs.storage_gb} GB</td>
                <td class="actions">{writable && vm.status === 'active' && <>
                  {vm.power_state === 'running'
                    ? <Button type="button" kind="plain" busy={a.busy} label={`Stop ${vm.name}`} onClick={() => act(vm, 'stop')}>Stop</Button>
                    : <Button type="button" kind="plain" busy={a.busy} label={`Start ${vm.name}`} onClick={() => act(vm, 'start')}>Start</Button>}
                  <Button type="button" kind="plain" busy={a.busy} label={`Delete ${vm.name}`} onClick={() => a.submit(async () => {
                    const r = await v2.del<{ operation?: Operation }>(`/vdc/vms/${vm.id}`);
                    if (r.data.operation) setStarted(r.data.operation);
                    await vms.reload();
                  })}>Delete</Button>
                </>}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loading>
    </Page>
  );
}
