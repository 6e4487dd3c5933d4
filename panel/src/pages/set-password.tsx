// An invitation or password-reset link: set a password, then sign in.
import { useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import { panel } from '../api.ts';
import { Loading, Notice, useLoad } from '../components/data.tsx';
import { Button, Field, Form, FormError, fieldError, useForm } from '../components/form.tsx';
import { useSession } from '../session.tsx';

interface Link {
  kind: 'invitation' | 'password_reset' | 'email_verification';
  email: string;
  expires_at: string;
}

export function SetPasswordPage() {
  const { params } = useRoute();
  const token = params.token ?? '';
  const { me, refresh } = useSession();
  const link = useLoad(async () => (await panel.get<Link>(`/links/${encodeURIComponent(token)}`)).data, [token]);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const f = useForm();
  const title = link.data?.kind === 'password_reset' ? 'Set a new password' : 'Welcome to Hostcloud';
  if (done) {
    return (
      <>
        <h1 id="page-title">Password set</h1>
        <Notice kind="success">Your password is set. Sign in as {done}.</Notice>
        <p><a class="btn primary" href={`/panel/sign-in`} onClick={() => { if (me.signed_in) void panel.post('/sign-out').then(refresh); }}>Sign in</a></p>
      </>
    );
  }
  return (
    <>
      <h1 id="page-title">{title}</h1>
      <Loading state={link}>
        {(l) => (
          <>
            <p>Choose the password you will sign in with as <strong>{l.email}</strong>.</p>
            <Form label="Set password" onSubmit={() => f.submit(async () => {
              if (password !== confirm) {
                f.setError(fieldError('confirm', 'does not match the new password'));
                return;
              }
              const r = await panel.post<{ email: string }>(`/links/${encodeURIComponent(token)}/password`, { password });
              setDone(r.data.email);
            })}>
              <Field label="New password" name="password" type="password" value={password} onValue={setPassword} error={f.field('password')}
                autoComplete="new-password" hint="At least 10 characters; a few words are easier to remember than symbols" required />
              <Field label="Confirm password" name="confirm" type="password" value={confirm} onValue={setConfirm} error={f.field('confirm')} autoComplete="new-password" required />
              <FormError error={f.error} fields={['password', 'confirm']} />
              <Button busy={f.busy}>Set password</Button>
            </Form>
          </>
        )}
      </Loading>
      {link.error && <p><a href="/panel/forgot-password">Ask for a new link</a> · <a href="/panel/sign-in">Sign in</a></p>}
    </>
  );
}
