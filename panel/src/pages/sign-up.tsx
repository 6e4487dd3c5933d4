// Sign up (when the operator allows it): name and email only; the emailed link is where the
// password is chosen (so only the mailbox's owner ever holds the account).
import { useState } from 'preact/hooks';
import { panel } from '../api.ts';
import { Notice } from '../components/data.tsx';
import { Button, Field, Form, FormError, useForm } from '../../../ui/form.tsx';
import { useSession } from '../session.tsx';

export function SignUpPage() {
  const { me } = useSession();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
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
        const r = await panel.post<{ message: string }>('/sign-up', { name, email: email.trim() });
        setSent(r.data.message);
      })}>
        <Field label="Name" name="name" value={name} onValue={setName} error={f.field('name')} autoComplete="name" required />
        <Field label="Email" name="email" type="email" value={email} onValue={setEmail} error={f.field('email')} autoComplete="email" required />
        <p class="muted">We email you a link: open it to choose your password.</p>
        <FormError error={f.error} fields={['name', 'email']} />
        <Button busy={f.busy}>Create account</Button>
      </Form>
      <p>Have an account? <a href="/panel/sign-in">Sign in</a></p>
    </>
  );
}
