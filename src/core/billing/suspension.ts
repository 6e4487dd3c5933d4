// How a service suspended for non-payment explains itself in a 409 (servers' and hosting's guards).
export const SUSPENDED_WHY = 'suspended for non-payment: a deposit that covers its due charge resumes it (GET /v2/billing/upcoming lists what is due)';

/** "<noun> <id> is suspended for non-payment: …", or null when `status` is not `suspended`. */
export function suspendedConflict(noun: string, id: string, status: string): string | null {
  return status === 'suspended' ? `${noun} ${id} is ${SUSPENDED_WHY}` : null;
}
