// Forgot password: a single-use link to set a new one, mailed if the email signs in here.
import { useState } from 'preact/hooks';
import { panel } from '../api.ts';
import { Notice } from '../components/data.tsx';
import { Button, Field, Form, FormError, useForm } from '../../../ui/form.tsx';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const f = useForm();
  return (
    <>
      <h1 id="page-title">Reset your password</h1>
      {sent ? <Notice kind="success">{sent}</Notice> : (
        <Form label="Reset your password" onSubmit={() => f.submit(async () => {
          setSent((await panel.post<{ message: string }>('/password-reset', { email: email.trim() })).data.message);
        })}>
          <Field label="Email" name="email" type="email" value={email} onValue={setEmail} error={f.field('email')} autoComplete="username" required />
          <FormError error={f.error} fields={['email']} />
          <Button busy={f.busy}>Send me a link</Button>
        </Form>
      )}
      <p><a href="/panel/sign-in">Back to sign in</a></p>
    </>
  );
}
