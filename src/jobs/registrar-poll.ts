// The registry's message queue (EPP <poll>), read by the worker every EPP_POLL_S: each message is
// recorded for the operator (registrar_messages) and logged before it is acknowledged. A
// transfer's outcome also reaches the driver, whose domain.transfer operation then finishes
// (approved → active; rejected or cancelled → failed with its refund); its job, when put back to
// wait (a long transfer: domain.transfer.ts), is made due at once. An unreachable registry
// is logged and tried again next time.
import type { Logger } from 'pino';
import type { Db } from '../core/types.ts';
import { wakeWaitingTransfer } from '../db/queries/operation-give-back.ts';
import { recordRegistrarMessage } from '../db/queries/registrar-messages.ts';
import type { Registrar } from '../providers/registrar/types.ts';
import { OPERATIONS_QUEUE } from './queue.ts';

export interface RegistrarPoll {
  stop(): void;
}

export function startRegistrarPoll(db: Db, registrar: Registrar | undefined, logger: Logger): RegistrarPoll | null {
  const queue = registrar?.messages;
  if (!queue || !registrar) return null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const pass = async () => {
    try {
      await queue.poll(async (m) => {
        await recordRegistrarMessage(db, {
          registrar: registrar.name, msgId: m.id, queuedAt: m.queuedAt, domain: m.domain, kind: m.transfer ? 'transfer' : 'notice', text: m.text,
          detail: m.transfer ? { ...m.transfer } : {},
        });
        if (m.transfer && m.transfer.state !== 'pending' && m.domain) await wakeWaitingTransfer(db, OPERATIONS_QUEUE, m.domain);
        const level = m.transfer ? 'info' : 'warn';
        logger[level]({ component: 'registrar', msg_id: m.id, domain: m.domain, transfer: m.transfer }, `registry message: ${m.text}`);
      });
    } catch (err) {
      logger.warn({ component: 'registrar', err }, 'reading the registry\'s message queue failed; trying again at the next poll');
    } finally {
      if (!stopped) timer = setTimeout(() => void pass(), queue.intervalMs);
    }
  };
  timer = setTimeout(() => void pass(), Math.min(1000, queue.intervalMs));
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
