// The v1 billing routes, in the order of the v1 document (src/http/v1/index.ts lists each family once).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as getBalance from './get-balance.ts';
import * as listTransactions from './list-transactions.ts';

export const BILLING_ROUTES: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  getBalance, listTransactions,
];
