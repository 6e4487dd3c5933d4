// v1 schemas of the balance and the ledger.
import { Type } from '@sinclair/typebox';
import { V1Money, V1Timestamp } from '../schemas.ts';

export const V1Balance = Type.Object({
  balance: V1Money('The prepaid balance, USD.'),
  total_deposits: V1Money('Everything that came in: deposits and refunds.'),
  total_withdrawals: V1Money('Everything charged.'),
});

export const V1Transaction = Type.Object({
  id: Type.Integer({ examples: [42] }),
  type: Type.String({ enum: ['deposit', 'withdraw'], description: 'A refund is money coming back: a `deposit` whose description names what was refunded.' }),
  amount: V1Money('Negative for a withdrawal.'),
  status: Type.String({ examples: ['completed'] }),
  description: Type.String({ examples: ['Server web-1 (srv_…): first monthly cycle'] }),
  created_at: V1Timestamp,
});
