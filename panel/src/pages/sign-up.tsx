// Sign up (when the operator allows it): a new account; the emailed link confirms the address.
import { useState } from 'preact/hooks';
import { panel } from '../api.ts';
import { Notice } from '../components/data.tsx';
import { Button, Field, Form, FormError, fieldError, useForm } from '../components/form.tsx';
import { useSession } from '../session.tsx';

export function SignUpPage() {
  const { me } = useSession();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const f = useForm();
  if (!me.sign_up_open) {
    return <><h1 id="page-title">Sign up</h1><p>Sign-up is closed: ask your provider for an invitation.</p><p><a href="/panel/sign-in">Sign in</a></p></>;
  }
  if (sent) return <><h1 id="page-title">Check your email</h1><Notice kind="success">{sent}</Notice><p><a href="/panel/sign-in">Sign in</a></p></>;
  return (
    <>
      <h1 id="page-title">Create an account</h1>
      <Form label="Create an account" onSubmit={() => f.submit(async () => {
        if (password !== confirm) {
          f.setError(fieldError('confirm', 'does not match the password'));
          return;
        }
        const r = await panel.post<{ message: string }>('/sign-up', { name, email: email.trim(), password });
        setSent(r.data.message);
      })}>
        <Field label="Name" name="name" value={name} onValue={setName} error={f.field('name')} autoComplete="name" required />
        <Field label="Email" name="email" type="email" value={email} onValue={setEmail} error={f.field('email')} autoComplete="email" required />
        <Field label="Password" name="password" type="password" value={password} onValue={setPassword} error={f.field('password')} autoComplete="new-password" hint="At least 10 characters" required />
        <Field label="Confirm password" name="confirm" type="password" value={confirm} onValue={setConfirm} error={f.field('confirm')} autoComplete="new-password" required />
        <FormError error={f.error} fields={['name', 'email', 'password', 'confirm']} />
        <Button busy={f.busy}>Create account</Button>
      </Form>
      <p>Have an account? <a href="/panel/sign-in">Sign in</a></p>
    </>
  );
}
