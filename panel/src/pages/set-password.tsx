// An invitation or password-reset link: set a password, then sign in. A reset also offers to revoke
// the account's API keys (a sub-user's: its own), for when someone else may have had the password.
import { useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import type { PanelData } from '../api-types.ts';
import { panel } from '../api.ts';
import { BRAND } from '../branding.ts';
import { Loading, Notice, useLoad } from '../components/data.tsx';
import { Button, Checkbox, Field, Form, FormError, fieldError, useForm } from '../../../ui/form.tsx';
import { useSession } from '../session.tsx';

type Link = PanelData<'GET /links/{token}'>;

export function SetPasswordPage() {
  const { params } = useRoute();
  const token = params.token ?? '';
  const { me, refresh } = useSession();
  const link = useLoad(async () => (await panel.get<Link>(`/links/${encodeURIComponent(token)}`)).data, [token]);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [revoke, setRevoke] = useState(false);
  const [done, setDone] = useState<{ email: string; revoked: number } | null>(null);
  const f = useForm();
  const title = link.data?.kind === 'password_reset' ? 'Set a new password' : `Welcome to ${BRAND.name}`;
  if (done) {
    return (
      <>
        <h1 id="page-title">Password set</h1>
        <Notice kind="success">Your password is set{done.revoked ? ` and ${done.revoked} API key${done.revoked === 1 ? ' is' : 's are'} revoked` : ''}. Sign in as {done.email}.</Notice>
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
              const body = l.kind === 'password_reset' ? { password, revoke_api_keys: revoke } : { password };
              const r = await panel.post<{ email: string; revoked_api_keys: number }>(`/links/${encodeURIComponent(token)}/password`, body);
              setDone({ email: r.data.email, revoked: r.data.revoked_api_keys });
            })}>
              <Field label="New password" name="password" type="password" value={password} onValue={setPassword} error={f.field('password')}
                autoComplete="new-password" hint="At least 10 characters; a few words are easier to remember than symbols" required />
              <Field label="Confirm password" name="confirm" type="password" value={confirm} onValue={setConfirm} error={f.field('confirm')} autoComplete="new-password" required />
              {l.kind === 'password_reset' && (
                <Checkbox label="Also revoke API keys" name="revoke_api_keys" checked={revoke} onChecked={setRevoke}
                  hint="Every key of the account (a sub-user's: its own), in case someone else had your password and made one. Scripts using them stop working until they get a new key." />
              )}
              <FormError error={f.error} fields={['password', 'confirm', 'revoke_api_keys']} />
              <Button busy={f.busy}>Set password</Button>
            </Form>
          </>
        )}
      </Loading>
      {link.error && <p><a href="/panel/forgot-password">Ask for a new link</a> · <a href="/panel/sign-in">Sign in</a></p>}
    </>
  );
}
