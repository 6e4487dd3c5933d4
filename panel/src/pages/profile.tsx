// The account's profile: name, contact email, company, phone, country (the operator's rules and
// messages). Reading needs account:read; saving account:write.
import { useEffect, useState } from 'preact/hooks';
import { panel, v2 } from '../api.ts';
import { Loading, Notice, Page, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, useForm } from '../../../ui/form.tsx';
import { can, useSession } from '../session.tsx';
import type { Data } from '../api-types.ts';

type Account = Data<'getAccount'>;

export function ProfilePage() {
  const { me, refresh } = useSession();
  const account = useLoad(async () => (await v2.get<Account>('/account')).data);
  const [form, setForm] = useState({ name: '', email: '', company: '', phone: '', country: '' });
  const [saved, setSaved] = useState(false);
  const f = useForm();
  useEffect(() => {
    const a = account.data;
    if (a) setForm({ name: a.name, email: a.email, company: a.company ?? '', phone: a.phone ?? '', country: a.country ?? '' });
  }, [account.data]);
  const set = (k: keyof typeof form) => (v: string) => { setSaved(false); setForm({ ...form, [k]: v }); };
  const writable = can(me, 'account:write');
  return (
    <Page title="Profile">
      <Loading state={account}>
        {(a) => (
          <Form label="Profile" onSubmit={() => f.submit(async () => {
            await panel.patch('/profile', { name: form.name, email: form.email.trim(), company: form.company, phone: form.phone, country: form.country.trim() });
            setSaved(true);
            await account.reload();
            await refresh();
          })}>
            <p class="muted">Account {a.id} · {a.status}. The email here is where notices go; you sign in with {me.user?.email}.</p>
            {saved && <Notice kind="success">Saved.</Notice>}
            <Field label="Name" name="name" value={form.name} onValue={set('name')} error={f.field('name')} readOnly={!writable} required />
            <Field label="Contact email" name="email" type="email" value={form.email} onValue={set('email')} error={f.field('email')} readOnly={!writable} required />
            <Field label="Company" name="company" value={form.company} onValue={set('company')} error={f.field('company')} readOnly={!writable} />
            <Field label="Phone" name="phone" type="tel" value={form.phone} onValue={set('phone')} error={f.field('phone')} readOnly={!writable} hint="Digits, spaces, ( ) and -, with an optional leading +" />
            <Field label="Country" name="country" value={form.country} onValue={set('country')} error={f.field('country')} readOnly={!writable} hint="Two-letter code, like NL" />
            <FormError error={f.error} fields={['name', 'email', 'company', 'phone', 'country']} />
            {writable && <Button busy={f.busy}>Save profile</Button>}
          </Form>
        )}
      </Loading>
    </Page>
  );
}
