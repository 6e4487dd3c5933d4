// Opening an account the way an operator does it: the account, its opening deposit and its first
// API key, in one transaction. Every input is checked before anything is written, and a failure
// of any step (a taken email) rolls back the others: never a half-made account.
import type { Account, ApiKey, Transaction } from '../../db/schema.ts';
import { inTransaction, setCompanionTarget } from '../../db/transaction.ts';
import { createApiKey } from '../api-keys/service.ts';
import { deposit } from '../billing/ledger.ts';
import { ApiError } from '../errors.ts';
import { depositCents } from '../money.ts';
import type { Db } from '../types.ts';
import { type OpenAccountInput, openAccountProblems } from './rules.ts';
import { type AccountProfile, createAccount, getAccount } from './service.ts';

export interface OpenedAccount {
  /** As it stands after the deposit. */
  account: Account;
  deposit: Transaction | null;
  apiKey: { key: ApiKey; secret: string } | null;
}

export async function openAccount(db: Db, input: OpenAccountInput & { profile: AccountProfile }): Promise<OpenedAccount> {
  const errors = openAccountProblems(input);
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  return inTransaction(db, async (trx) => {
    const account = await createAccount(trx, input.profile);
    setCompanionTarget('account', account.id);
    let tx: Transaction | null = null;
    if (input.deposit) {
      const amount = depositCents(input.deposit.amount) as { cents: number };
      tx = await deposit(trx, account.id, amount.cents, input.deposit.description ?? 'Initial deposit');
    }
    const key = input.apiKey
      ? await createApiKey(trx, account.id, { name: input.apiKey.name ?? 'default', ipAllowlist: input.apiKey.ipAllowlist, isTest: input.apiKey.isTest, scopes: input.apiKey.scopes })
      : null;
    return { account: tx ? await getAccount(trx, account.id) : account, deposit: tx, apiKey: key };
  });
}
