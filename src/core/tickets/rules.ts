// Pure rules of support tickets: what a subject and a message must hold (counted on Unicode code
// points and letters, so every script counts alike), and the state machine — one table that every
// (state, action) pair is looked up in, for the customer's and the staff's side alike.
import type { FieldError } from '../errors.ts';

export const TICKET_STATUSES = ['open', 'answered', 'customer_reply', 'in_progress', 'pending', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const DEFAULT_PRIORITY: Priority = 'medium';

/** Statuses staff may set by hand. `answered` and `customer_reply` say who wrote last; only a reply sets them. */
export const STAFF_SETTABLE = ['open', 'in_progress', 'pending', 'closed'] as const;
export type StaffSettable = (typeof STAFF_SETTABLE)[number];

export const SUBJECT_MAX = 200;
export const MESSAGE_MIN_CHARS = 25;
export const MESSAGE_MIN_LETTERS = 15;
export const MESSAGE_MAX = 10_000;

/** Unicode code points (not UTF-16 units: an emoji or a CJK extension character is one). */
export function codePoints(text: string): number {
  return [...text].length;
}

/** Unicode letters of any script (`\p{L}`); digits, punctuation, marks, symbols and spaces are not letters. */
export function letters(text: string): number {
  return text.match(/\p{L}/gu)?.length ?? 0;
}

/** What is stored: the text without leading or trailing white space. Maxima apply to it. */
export const stored = (text: string) => text.trim();

// Minima are counted on the text as a person sees it: NFC, so an "é" typed as e + combining accent
// is one character and one letter.
const seen = (text: string) => stored(text).normalize('NFC');

export function subjectProblem(subject: string): string | null {
  if (codePoints(stored(subject)) > SUBJECT_MAX) return `must be at most ${SUBJECT_MAX} characters`;
  if (letters(seen(subject)) < 1) return 'must contain at least one letter';
  return null;
}

/** The customer's rule (create and reply): at least 25 characters of which at least 15 letters. */
export function messageProblem(message: string): string | null {
  if (codePoints(stored(message)) > MESSAGE_MAX) return `must be at most ${MESSAGE_MAX} characters`;
  const m = seen(message);
  const chars = codePoints(m);
  const n = letters(m);
  if (chars < MESSAGE_MIN_CHARS || n < MESSAGE_MIN_LETTERS) {
    return `must be at least ${MESSAGE_MIN_CHARS} characters including at least ${MESSAGE_MIN_LETTERS} letters (this one has ${chars} characters, ${n} letters)`;
  }
  return null;
}

/** Staff replies and internal notes: any text that is not blank ("Done." is a fine answer). */
export function staffTextProblem(text: string): string | null {
  if (stored(text) === '') return 'must not be blank';
  if (codePoints(stored(text)) > MESSAGE_MAX) return `must be at most ${MESSAGE_MAX} characters`;
  return null;
}

export interface NewTicketInput {
  subject: string;
  message: string;
  department_id?: number;
  priority?: Priority;
}

export function newTicketProblems(input: NewTicketInput): FieldError[] {
  const errors: FieldError[] = [];
  const s = subjectProblem(input.subject);
  if (s) errors.push({ field: 'subject', code: 'INVALID', message: s });
  const m = messageProblem(input.message);
  if (m) errors.push({ field: 'message', code: 'INVALID', message: m });
  return errors;
}

export type TicketAction =
  | { kind: 'customer_reply' }
  | { kind: 'customer_close' }
  | { kind: 'staff_reply' }
  | { kind: 'staff_note' }
  | { kind: 'staff_set'; status: StaffSettable };

export type Transition = { ok: true; next: TicketStatus } | { ok: false; reason: string };

/**
 * The state machine (docs/behaviour.md, "Tickets, sub-users, SSH keys, reseller"), as one function of (state, action):
 * - a customer reply → `customer_reply`, a staff reply → `answered`, from any state but `closed`;
 * - closing (customer, or staff setting `closed`) → `closed`, from any state but `closed`;
 * - staff may set `open`, `in_progress` or `pending` from any state — from `closed` that reopens it;
 *   setting the status a ticket already has changes nothing;
 * - an internal note never changes the state, closed tickets included.
 * Replying to or closing a closed ticket is refused (409 STATE_CONFLICT).
 */
export function transition(state: TicketStatus, action: TicketAction): Transition {
  switch (action.kind) {
    case 'staff_note':
      return { ok: true, next: state };
    case 'customer_reply':
    case 'staff_reply':
    case 'customer_close':
      if (state === 'closed') return { ok: false, reason: `the ticket is closed; a closed ticket cannot be ${action.kind.endsWith('close') ? 'closed again' : 'replied to'}` };
      return { ok: true, next: action.kind === 'customer_reply' ? 'customer_reply' : action.kind === 'staff_reply' ? 'answered' : 'closed' };
    case 'staff_set':
      if (action.status === 'closed' && state === 'closed') return { ok: false, reason: 'the ticket is already closed' };
      return { ok: true, next: action.status };
    default: {
      const unknown: never = action;
      throw new Error(`unknown ticket action ${JSON.stringify(unknown)}`);
    }
  }
}
