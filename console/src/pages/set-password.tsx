// The invitation link (/admin/set-password/<token>, from POST /admin/v1/staff): the member's first
// password; then it signs in and enrols two-factor.
import { useState } from 'preact/hooks';
import { admin } from '../api.ts';
import { Notice } from '../components/data.tsx';
import { Button, Field, Form, FormError, fieldError, useForm } from '../../../ui/form.tsx';
import { useSession } from '../session.tsx';

export function SetPasswordPage({ token = '' }: { token?: string }) {
  const { session, refresh } = useSession();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const f = useForm();
  if (done) {
    const href = `/admin/sign-in?email=${encodeURIComponent(done)}`;
    return (
      <>
        <h1 id="page-title">Password set</h1>
        <Notice kind="success">Your password is set. Sign in as {done}; you will set up an authenticator app next.</Notice>
        <p><a class="btn primary" href={href} onClick={async (e) => {
          if (session.stage === 'signed_out') return;
          e.preventDefault();
          await admin.del('/session');
          await refresh();
          location.assign(href);
        }}>Sign in</a></p>
      </>
    );
  }
  return (
    <>
      <h1 id="page-title">Welcome to the Hostcloud console</h1>
      <p>Choose the password you will sign in with.</p>
      <Form label="Set password" onSubmit={() => f.submit(async () => {
        if (password !== confirm) {
          f.setError(fieldError('confirm', 'does not match the new password'));
          return;
        }
        const r = await admin.post<{ email: string }>('/staff-password', { token, password });
        setDone(r.data.email);
      })}>
        <Field label="New password" name="password" type="password" value={password} onValue={setPassword} error={f.field('password')}
          autoComplete="new-password" hint="At least 10 characters; a few words are easier to remember than symbols" required />
        <Field label="Confirm password" name="confirm" type="password" value={confirm} onValue={setConfirm} error={f.field('confirm')} autoComplete="new-password" required />
        <FormError error={f.error} fields={['password', 'confirm']} />
        <Button busy={f.busy}>Set password</Button>
      </Form>
    </>
  );
}
