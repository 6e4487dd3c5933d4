// Sign in: email and password, then — with two-factor on — the code of the authenticator app (or
// a recovery code).
import { useState } from 'preact/hooks';
import { panel } from '../api.ts';
import { Button, Field, Form, FormError, useForm } from '../../../ui/form.tsx';
import { useSession } from '../session.tsx';

export function SignInPage() {
  const { me, refresh } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const f = useForm();
  const needsCode = me.stage === 'totp';

  if (needsCode) {
    return (
      <>
        <h1 id="page-title">Two-factor code</h1>
        <p>Enter the 6-digit code of your authenticator app for {me.user?.email}, or one of your recovery codes.</p>
        <Form label="Two-factor code" onSubmit={() => f.submit(async () => {
          await panel.post('/sign-in/code', { code: code.trim() });
          await refresh();
        })}>
          <Field label="Code" name="code" value={code} onValue={setCode} error={f.field('code')} autoComplete="one-time-code" inputMode="numeric" required />
          <FormError error={f.error} fields={['code']} />
          <Button busy={f.busy}>Sign in</Button>
          <p><button type="button" class="link" onClick={async () => { await panel.post('/sign-out'); await refresh(); }}>Use another account</button></p>
        </Form>
      </>
    );
  }
  return (
    <>
      <h1 id="page-title">Sign in</h1>
      <Form label="Sign in" onSubmit={() => f.submit(async () => {
        await panel.post('/sign-in', { email: email.trim(), password });
        setPassword('');
        await refresh();
      })}>
        <Field label="Email" name="email" type="email" value={email} onValue={setEmail} error={f.field('email')} autoComplete="username" required />
        <Field label="Password" name="password" type="password" value={password} onValue={setPassword} error={f.field('password')} autoComplete="current-password" required />
        <FormError error={f.error} fields={['email', 'password']} />
        <Button busy={f.busy}>Sign in</Button>
      </Form>
      <p><a href="/panel/forgot-password">Forgot your password?</a></p>
      {me.sign_up_open && <p>New here? <a href="/panel/sign-up">Create an account</a></p>}
    </>
  );
}
