// Create a server from the catalog: name, location, plan, operating system, root password, SSH
// keys. Billable: the first month, priced by the API and confirmed, is charged now; the page then
// follows the creation.
import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { v2 } from '../api.ts';
import { Loading, Page, useLoad } from '../components/data.tsx';
import { Checkbox, Field, Form, FormError, Select, useForm } from '../../../ui/form.tsx';
import type { Data, Item } from '../api-types.ts';
import type { SshKey } from './ssh-keys.tsx';
import { can, useSession } from '../session.tsx';
import { BuyButton, ConfirmCharge, useCharge } from '../components/charge.tsx';

type Plan = Item<'listPlans'>;
type Location = Item<'listLocations'>;
type Os = Item<'listOperatingSystems'>;

export function ServerCreatePage() {
  const { me } = useSession();
  const { route } = useLocation();
  const catalog = useLoad(async () => {
    const [plans, locations, oses, keys] = await Promise.all([
      v2.get<Plan[]>('/plans?per_page=100'), v2.get<Location[]>('/locations?per_page=100'), v2.get<Os[]>('/operating-systems?per_page=100'),
      can(me, 'ssh_keys:read') ? v2.get<SshKey[]>('/ssh-keys?per_page=100') : Promise.resolve({ data: [] as SshKey[] }),
    ]);
    // A version on sale that this platform cannot install yet (no image) is not offered.
    return { plans: plans.data.filter((p) => p.available), locations: locations.data, oses: oses.data.filter((o) => o.available), keys: keys.data };
  });
  const [name, setName] = useState('');
  const [plan, setPlan] = useState('');
  const [location, setLocation] = useState('');
  const [os, setOs] = useState('');
  const [password, setPassword] = useState('');
  const [keys, setKeys] = useState<number[]>([]);
  const f = useForm();
  const body = (exact: boolean) => ({
    // The price depends on the plan and location, not on the name or password: stand-ins price it while they are typed.
    name: exact ? name.trim() : `price-check-${Date.now()}.example.com`, password: exact ? password : 'Price-check-2026!',
    location_id: Number(location), plan_id: Number(plan), os_version_id: Number(os), ...(keys.length && exact ? { ssh_key_ids: keys } : {}),
  });
  const charge = useCharge((exact) => (plan && location && os ? v2.post('/servers', body(exact), { dryRun: true }) : null), [plan, location, os, name, password, keys.join()]);
  useEffect(() => {
    const c = catalog.data;
    if (!c) return;
    setPlan((p) => p || String(c.plans[0]?.id ?? ''));
    setLocation((l) => l || String(c.locations[0]?.id ?? ''));
    setOs((o) => o || String(c.oses[0]?.id ?? ''));
  }, [catalog.data]);
  return (
    <Page title="Create server">
      <p><a href="/panel/servers">← Servers</a></p>
      <Loading state={catalog}>
        {(c) => {
          const chosen = c.plans.find((p) => String(p.id) === plan);
          return (
            <Form label="Create server" onSubmit={() => f.submit(charge.ask)}>
              <Field label="Name" name="name" value={name} onValue={setName} error={f.field('name')} hint="A host name, e.g. web-1.example.com" required />
              <Select label="Location" name="location_id" value={location} onValue={setLocation} error={f.field('location_id')}
                options={c.locations.map((l) => ({ value: String(l.id), label: `${l.name} (${l.country})` }))} />
              <Select label="Plan" name="plan_id" value={plan} onValue={setPlan} error={f.field('plan_id')}
                options={c.plans.map((p) => ({ value: String(p.id), label: `${p.name} — ${p.specs.cpu_cores} vCPU, ${p.specs.ram_mb / 1024} GB RAM, ${p.specs.storage_gb} GB — ${p.price.amount} ${p.price.currency}/month` }))} />
              <Select label="Operating system" name="os_version_id" value={os} onValue={setOs} error={f.field('os_version_id')}
                options={c.oses.map((o) => ({ value: String(o.id), label: o.name }))} />
              <Field label="Root password" name="password" type="password" value={password} onValue={setPassword} error={f.field('password')}
                autoComplete="new-password" hint="At least 8 characters with upper case, lower case, a digit and a symbol" required />
              {c.keys.length > 0 && (
                <fieldset>
                  <legend>SSH keys</legend>
                  {c.keys.map((k) => (
                    <Checkbox key={k.id} label={k.name} name="ssh_key_ids" checked={keys.includes(k.id)}
                      onChecked={(on) => setKeys(on ? [...keys, k.id] : keys.filter((x) => x !== k.id))} />
                  ))}
                </fieldset>
              )}
              {chosen && <p class="muted">The first month of {chosen.name} is charged from your balance now; then {chosen.price.amount} {chosen.price.currency} a month.</p>}
              <BuyButton charge={charge} busy={f.busy}>Create server</BuyButton>
              <ConfirmCharge charge={charge} busy={f.busy} what={<>Server <strong>{name.trim()}</strong> ({chosen?.name})</>} onConfirm={() => f.submit(async () => {
                const r = await v2.post<Data<'createServer'>>('/servers', body(true), { idempotent: true });
                route(`/panel/servers/${r.data.id}${r.data.operation ? `?operation=${r.data.operation.id}` : ''}`);
              })} />
              <FormError error={f.error} fields={['name', 'location_id', 'plan_id', 'os_version_id', 'password', 'ssh_key_ids']} />
            </Form>
          );
        }}
      </Loading>
    </Page>
  );
}
