// v1 schemas of departments and tickets.
import { Type } from '@sinclair/typebox';
import { TICKET_STATUSES } from '../../../core/tickets/rules.ts';
import { Nullable, V1Timestamp } from '../schemas.ts';

export const V1Department = Type.Object({
  id: Type.Integer({ examples: [1] }),
  name: Type.String({ examples: ['Technical Support'] }),
  email: Type.String({ examples: ['support@hostcloud.example'] }),
});

const Status = Type.String({
  enum: [...TICKET_STATUSES],
  description: '`open` (new), `customer_reply` (you wrote last), `answered` (support wrote last), `in_progress` and `pending` (set by support), `closed`.',
});
const Id = Type.String({ description: 'The ticket number.', examples: ['482913'] });

export const V1TicketListItem = Type.Object({
  id: Id,
  subject: Type.String({ examples: ['Server web-1 does not boot'] }),
  status: Status,
  department: Nullable(Type.String({ description: 'The department\'s name; null when none was chosen.', examples: ['Technical Support'] })),
});

export const V1TicketDetail = Type.Object({
  id: Id,
  subject: Type.String({ examples: ['Server web-1 does not boot'] }),
  status: Status,
  messages: Type.Array(Type.Object({
    id: Type.Integer({ examples: [9051] }),
    message: Type.String({ examples: ['The console shows "no bootable device" since this morning.'] }),
    author: Type.String({ enum: ['customer', 'staff'], description: '`customer`: the account or a sub-user; `staff`: support.' }),
    created_at: V1Timestamp,
  }), { description: 'The thread, oldest first (support\'s internal notes never appear).' }),
});

export const TicketParams = Type.Object({ ticket_id: Type.String({ minLength: 1, maxLength: 32, description: 'The ticket number.', examples: ['482913'] }) });

export const MessageField = Type.String({
  minLength: 1, maxLength: 10_000,
  description: 'At least 25 characters of which at least 15 letters (any script), at most 10,000.',
  examples: ['The console shows "no bootable device" since this morning; I reinstalled Ubuntu 24.04 at 08:10.'],
});
