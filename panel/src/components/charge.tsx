// Buying from the panel. The price beside a button is the API's own: the request the button would
// send, sent with `Dry-Run: true` (run, priced and rolled back by the code that charges), so the
// panel never computes a price itself. A click dry-runs the exact request again — its errors are
// the live request's, shown by the form — and asks for a confirmation naming the price and the
// balance after; only Confirm sends the request for real.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type DryRun, type Envelope, type Money } from '../api.ts';
import { Button } from '../../../ui/form.tsx';

/** Sends the request dry; `exact` false may stand in placeholders for what does not change the price (a name). Null: not ready to price. */
export type Quote = (exact: boolean) => Promise<Envelope<unknown>> | null;

export interface Charge {
  /** The price beside the button: null while unknown or when the inputs cannot be priced yet. */
  price: DryRun | null;
  /** Why there is no price (the balance is too low, the input is refused), when the quote failed. */
  priceError: string | null;
  /** The inputs cannot be priced yet (nothing chosen to buy). */
  idle: boolean;
  /** After a click: the dry run of the exact request, waiting for Confirm. */
  pending: DryRun | null;
  /** Dry-runs the exact request and asks for the confirmation; throws the API's error (the form shows it). */
  ask(): Promise<void>;
  cancel(): void;
}

const cents = (m: Money) => Math.round(Number(m.amount) * 100);

/** The amount a dry run names, as the panel words it. */
export function priceText(d: DryRun): string {
  if (cents(d.charged) > 0) return `${d.charged.amount} ${d.charged.currency}`;
  if (cents(d.refunded) > 0) return `${d.refunded.amount} ${d.refunded.currency} back`;
  return 'no charge';
}

export function useCharge(quote: Quote, deps: unknown[]): Charge {
  // The price (or why there is none) is shown only for the inputs it was quoted for, as the
  // confirmation is: a price kept while the next one was asked named a year count no longer chosen.
  const [quoted, setQuoted] = useState<{ price: DryRun | null; error: string | null; version: number }>({ price: null, error: null, version: -1 });
  const [asked, setAsked] = useState<{ dry: DryRun; version: number } | null>(null);
  const [idle, setIdle] = useState(false);
  // A confirmation holds only for the inputs it was asked with. Which inputs those are is counted
  // here, as the page renders: clearing it from the effect below lost races, since Preact runs
  // effects after paint — a click right after a change (Register as soon as Check answered, on a
  // busy machine) was confirmed, then the late effect of the change before it took it away.
  const version = useRef(0);
  const lastDeps = useRef<unknown[]>(deps);
  if (deps.length !== lastDeps.current.length || deps.some((d, i) => !Object.is(d, lastDeps.current[i]))) {
    lastDeps.current = deps;
    version.current += 1;
  }
  const pending = asked && asked.version === version.current ? asked.dry : null;
  const current = quoted.version === version.current;
  const price = current ? quoted.price : null;
  const priceError = current ? quoted.error : null;
  useEffect(() => {
    let alive = true;
    const quoting = version.current;
    // Typing in a field re-prices once the typing pauses, not on every key.
    const timer = setTimeout(() => {
      const sent = quote(false);
      setIdle(!sent);
      if (!sent) {
        setQuoted({ price: null, error: null, version: quoting });
        return;
      }
      sent.then((r) => {
        if (!alive) return;
        setQuoted({ price: r.meta.dry_run ?? null, error: null, version: quoting });
      }, (e: unknown) => {
        if (!alive) return;
        setQuoted({ price: null, error: e instanceof ApiError ? e.message : String(e), version: quoting });
      });
    }, 250);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, deps);
  async function ask(): Promise<void> {
    setAsked(null);
    const asking = version.current;
    const sent = quote(true);
    if (!sent) return;
    const d = (await sent).meta.dry_run;
    if (!d) throw new ApiError(0, 'CLIENT', 'The server did not price this request; try again');
    setQuoted({ price: d, error: null, version: asking });
    setAsked({ dry: d, version: asking });
  }
  return { price, priceError, idle, pending, ask, cancel: () => setAsked(null) };
}

/** The price beside a button, announced as it changes. */
export function Price({ charge, idle = 'Price: —' }: { charge: Charge; idle?: string }) {
  const { price, priceError } = charge;
  return (
    <span class={`price${priceError ? ' unpriced' : ''}`} aria-live="polite" data-price={price ? price.charged.amount : undefined}>
      {price ? <>Price: <strong>{priceText(price)}</strong></> : priceError ? priceError : <span class="muted">{charge.idle ? idle : 'Price: …'}</span>}
    </span>
  );
}

/** A buying button with its price beside it (a submit button: the form's onSubmit calls `charge.ask`). */
export function BuyButton({ charge, busy, children, label, type = 'submit', onClick, disabled, idle }: {
  charge: Charge; busy: boolean; children: ComponentChildren; label?: string; type?: 'submit' | 'button'; onClick?(): void; disabled?: boolean;
  /** What stands for the price while nothing can be priced yet. */
  idle?: string;
}) {
  return (
    <span class="buy">
      <Button busy={busy} type={type} onClick={onClick} label={label} disabled={disabled || charge.pending !== null}>{children}</Button>
      <Price charge={charge} idle={idle} />
    </span>
  );
}

/** The confirmation a purchase waits for: what is bought, its price and the balance after. */
export function ConfirmCharge({ charge, what, busy, onConfirm }: { charge: Charge; what: ComponentChildren; busy: boolean; onConfirm(): void }) {
  const d = charge.pending;
  if (!d) return null;
  const refund = cents(d.charged) === 0 && cents(d.refunded) > 0;
  return (
    <div class="confirm-box charge" role="group" aria-label="Confirm purchase">
      <p>{what}: {refund
        ? <><strong class="charge-amount">{d.refunded.amount} {d.refunded.currency}</strong> is credited to your balance.</>
        : <><strong class="charge-amount">{d.charged.amount} {d.charged.currency}</strong> is charged from your balance now.</>}
        {' '}Balance after: <strong class="balance-after">{d.balance_after.amount} {d.balance_after.currency}</strong>.</p>
      <div class="buttons">
        <Button type="button" busy={busy} onClick={onConfirm}>Confirm and pay</Button>
        <Button type="button" kind="plain" onClick={charge.cancel}>Cancel</Button>
      </div>
    </div>
  );
}
