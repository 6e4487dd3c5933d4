// Root passwords we choose for the customer (reset_password without a password). They meet the
// same rule as a customer's own (checkPassword), so the platform never refuses one of ours.
import { randomInt } from 'node:crypto';

const CLASSES = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!#%+-.:=?@_~'] as const;
const ALL = CLASSES.join('');
const LENGTH = 20;

export function generatePassword(): string {
  // One of each class, the rest from all of them, then shuffled so the classes have no fixed place.
  const chars = CLASSES.map((c) => c[randomInt(c.length)]!);
  while (chars.length < LENGTH) chars.push(ALL[randomInt(ALL.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
