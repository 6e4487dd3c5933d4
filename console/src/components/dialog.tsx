// A confirmation asked in a native <dialog> opened modal: the browser keeps focus inside it, Escape
// closes it, and focus returns to the button that opened it. The action's error shows inside.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import { Button, FormError, useForm } from '../../../ui/form.tsx';

export interface ConfirmProps {
  /** Shown (opened modal) while true. */
  open: boolean;
  title: string;
  children?: ComponentChildren;
  /** The confirming button's text (`Refund`, `Suspend 3 accounts`). */
  confirm: string;
  danger?: boolean;
  /** Runs on confirm; the dialog closes once it succeeds, and stays open with the error if it fails. */
  onConfirm(): Promise<void>;
  onClose(): void;
}

export function ConfirmDialog(p: ConfirmProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const f = useForm();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (p.open && !d.open) {
      f.setError(null);
      d.showModal();
    } else if (!p.open && d.open) d.close();
  }, [p.open]);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby={`${id}-title`} onClose={() => p.onClose()}>
      <form method="dialog" onSubmit={(e) => {
        e.preventDefault();
        void f.submit(async () => {
          await p.onConfirm();
          p.onClose();
        });
      }}>
        <h2 id={`${id}-title`}>{p.title}</h2>
        {p.children}
        <FormError error={f.error} />
        <div class="buttons">
          <Button busy={f.busy} kind={p.danger ? 'danger' : 'primary'}>{p.confirm}</Button>
          <Button type="button" kind="plain" onClick={() => p.onClose()}>Cancel</Button>
        </div>
      </form>
    </dialog>
  );
}
