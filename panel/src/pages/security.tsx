// Security of the signed-in person: password, two-factor authentication (enrol with a QR code,
// recovery codes shown once, turn off with a code) and sessions (list, end).
import { useState } from 'preact/hooks';
import { panel, when } from '../api.ts';
import { Loading, Notice, Page, Table, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, fieldError, useForm } from '../../../ui/form.tsx';
import { useSession } from '../session.tsx';

interface Session {
  id: string;
  current: boolean;
  ip: string;
  user_agent: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  /** A staff member signed in as the customer: who and why. */
  impersonation: { staff_name: string; reason: string; read_only: boolean } | null;
}

function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState(false);
  const f = useForm();
  return (
    <Form label="Change password" onSubmit={() => f.submit(async () => {
      setDone(false);
      if (next !== confirm) {
        f.setError(fieldError('confirm', 'does not match the new password'));
        return;
      }
      await panel.post('/password', { current_password: current, new_password: next });
      setCurrent(''); setNext(''); setConfirm(''); setDone(true);
    })}>
      {done && <Notice kind="success">Password changed. Your other sessions were signed out.</Notice>}
      <Field label="Current password" name="current_password" type="password" value={current} onValue={setCurrent} error={f.field('current_password')} autoComplete="current-password" required />
      <Field label="New password" name="new_password" type="password" value={next} onValue={setNext} error={f.field('new_password')} autoComplete="new-password" hint="At least 10 characters" required />
      <Field label="Confirm password" name="confirm" type="password" value={confirm} onValue={setConfirm} error={f.field('confirm')} autoComplete="new-password" required />
      <FormError error={f.error} fields={['current_password', 'new_password', 'confirm']} />
      <Button busy={f.busy}>Change password</Button>
    </Form>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <Notice kind="warning">
      <p><strong>Recovery codes</strong> — each signs you in once if you lose your phone. Store them now: they are not shown again.</p>
      <ul class="codes" aria-label="Recovery codes">{codes.map((c) => <li key={c}><code>{c}</code></li>)}</ul>
    </Notice>
  );
}

function TwoFactor() {
  const { refresh } = useSession();
  const status = useLoad(async () => (await panel.get<{ enabled: boolean; recovery_codes_left: number }>('/two-factor')).data);
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauth_uri: string; qr_svg: string } | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const f = useForm();
  const reload = async () => { await status.reload(); await refresh(); };
  return (
    <Loading state={status}>
      {(s) => (
        <>
          {codes && <RecoveryCodes codes={codes} />}
          {s.enabled ? (
            <>
              <p><span class="badge active">On</span> Signing in asks for a code of your authenticator app. {s.recovery_codes_left} recovery codes left.</p>
              <Form label="Two-factor authentication" onSubmit={() => {}}>
                <Field label="Code" name="code" value={code} onValue={setCode} error={f.field('code')} autoComplete="one-time-code"
                  hint="A current code of your app (or a recovery code) to confirm it is you" required />
                <FormError error={f.error} fields={['code']} />
                <div class="buttons">
                  <Button type="button" kind="plain" busy={f.busy} onClick={() => f.submit(async () => {
                    setCodes((await panel.post<{ recovery_codes: string[] }>('/two-factor/recovery-codes', { code: code.trim() })).data.recovery_codes);
                    setCode('');
                    await reload();
                  })}>New recovery codes</Button>
                  <Button type="button" kind="danger" busy={f.busy} onClick={() => f.submit(async () => {
                    await panel.post('/two-factor/disable', { code: code.trim() });
                    setCode(''); setCodes(null);
                    await reload();
                  })}>Turn off two-factor</Button>
                </div>
              </Form>
            </>
          ) : enrolment ? (
            <>
              <p>Scan this QR code with an authenticator app (or type the key), then enter the code it shows.</p>
              <img class="qr" alt="QR code to add this account to an authenticator app" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`} width={200} height={200} />
              <div class="field">
                <label for="totp-key">Key</label>
                <input id="totp-key" readOnly value={enrolment.secret} class="secret" />
              </div>
              <Form label="Turn on two-factor" onSubmit={() => f.submit(async () => {
                setCodes((await panel.post<{ recovery_codes: string[] }>('/two-factor', { code: code.trim() })).data.recovery_codes);
                setEnrolment(null); setCode('');
                await reload();
              })}>
                <Field label="Code" name="code" value={code} onValue={setCode} error={f.field('code')} autoComplete="one-time-code" inputMode="numeric" required />
                <FormError error={f.error} fields={['code']} />
                <Button busy={f.busy}>Turn on two-factor</Button>
              </Form>
            </>
          ) : (
            <>
              <p><span class="badge revoked">Off</span> Add a second step to signing in: a code from an app on your phone.</p>
              <FormError error={f.error} />
              <Button type="button" busy={f.busy} onClick={() => f.submit(async () => {
                setCodes(null);
                setEnrolment((await panel.post<{ secret: string; otpauth_uri: string; qr_svg: string }>('/two-factor/enrolment')).data);
              })}>Set up two-factor</Button>
            </>
          )}
        </>
      )}
    </Loading>
  );
}

function Sessions() {
  const list = useLoad(async () => (await panel.get<Session[]>('/sessions')).data);
  const f = useForm();
  return (
    <Loading state={list}>
      {(rows) => (
        <>
          <FormError error={f.error} />
          <Table caption="Sessions" stack head={['Signed in', 'Last seen', 'Address', 'Browser', '']}>
            {rows.map((s) => (
              <tr key={s.id}>
                <td>{when(s.created_at)}</td>
                <td>{when(s.last_seen_at)}</td>
                <td>{s.ip}</td>
                <td class="ua">
                  {s.impersonation && <strong class="by-staff">by staff {s.impersonation.staff_name}: {s.impersonation.reason}{s.impersonation.read_only ? ' (read-only)' : ''}<br /></strong>}
                  {s.user_agent || '—'}
                </td>
                <td>{s.current ? <span class="badge active">This session</span> : (
                  <Button type="button" kind="plain" busy={f.busy} label={`End session from ${s.ip} signed in ${when(s.created_at)}`}
                    onClick={() => f.submit(async () => { await panel.del(`/sessions/${s.id}`); await list.reload(); })}>End</Button>
                )}</td>
              </tr>
            ))}
          </Table>
        </>
      )}
    </Loading>
  );
}

export function SecurityPage() {
  const { me } = useSession();
  return (
    <Page title="Security">
      <p class="muted">You sign in as {me.user?.email}.</p>
      <h2>Two-factor authentication</h2>
      <TwoFactor />
      <h2>Password</h2>
      <PasswordForm />
      <h2>Sessions</h2>
      <Sessions />
    </Page>
  );
}
