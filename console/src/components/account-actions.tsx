// The account page's slot for actions other parts of the console add beside Suspend and Close
// (the impersonation's "Sign in as the customer"): one component per entry, each given the account
// and deciding itself whether the member's role may see it.
import type { ComponentType } from 'preact';
import { ImpersonateButton } from './impersonate.tsx';

export interface AccountSummary {
  id: string;
  email: string;
  name: string;
  status: 'active' | 'suspended' | 'closed';
}

/** Add a line here to put a button in the account page's header. */
export const ACCOUNT_ACTIONS: ComponentType<{ account: AccountSummary }>[] = [ImpersonateButton];

export function AccountActions({ account }: { account: AccountSummary }) {
  return <>{ACCOUNT_ACTIONS.map((A, i) => <A key={i} account={account} />)}</>;
}
