// The ticket rules that need no database: the state machine over every (state, action) pair, and
// the subject and message rules counted on Unicode letters and code points.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  STAFF_SETTABLE, TICKET_STATUSES, type TicketAction, type TicketStatus, codePoints, letters, messageProblem, staffTextProblem, subjectProblem, transition,
} from '../../src/core/tickets/rules.ts';

const ACTIONS: TicketAction[] = [
  { kind: 'customer_reply' }, { kind: 'customer_close' }, { kind: 'staff_reply' }, { kind: 'staff_note' },
  ...STAFF_SETTABLE.map((status) => ({ kind: 'staff_set' as const, status })),
];
const name = (a: TicketAction) => (a.kind === 'staff_set' ? `staff_set:${a.status}` : a.kind);

// The expected next state of every pair; null = refused (409 STATE_CONFLICT). Written out in full,
// not derived, so that a change to the machine shows up here as a changed row.
const EXPECTED: Record<TicketStatus, Record<string, TicketStatus | null>> = {
  open: { customer_reply: 'customer_reply', customer_close: 'closed', staff_reply: 'answered', staff_note: 'open',
    'staff_set:open': 'open', 'staff_set:in_progress': 'in_progress', 'staff_set:pending': 'pending', 'staff_set:closed': 'closed' },
  answered: { customer_reply: 'customer_reply', customer_close: 'closed', staff_reply: 'answered', staff_note: 'answered',
    'staff_set:open': 'open', 'staff_set:in_progress': 'in_progress', 'staff_set:pending': 'pending', 'staff_set:closed': 'closed' },
  customer_reply: { customer_reply: 'customer_reply', customer_close: 'closed', staff_reply: 'answered', staff_note: 'customer_reply',
    'staff_set:open': 'open', 'staff_set:in_progress': 'in_progress', 'staff_set:pending': 'pending', 'staff_set:closed': 'closed' },
  in_progress: { customer_reply: 'customer_reply', customer_close: 'closed', staff_reply: 'answered', staff_note: 'in_progress',
    'staff_set:open': 'open', 'staff_set:in_progress': 'in_progress', 'staff_set:pending': 'pending', 'staff_set:closed': 'closed' },
  pending: { customer_reply: 'customer_reply', customer_close: 'closed', staff_reply: 'answered', staff_note: 'pending',
    'staff_set:open': 'open', 'staff_set:in_progress': 'in_progress', 'staff_set:pending': 'pending', 'staff_set:closed': 'closed' },
  closed: { customer_reply: null, customer_close: null, staff_reply: null, staff_note: 'closed',
    'staff_set:open': 'open', 'staff_set:in_progress': 'in_progress', 'staff_set:pending': 'pending', 'staff_set:closed': null },
};

test('the state machine: every (state, action) pair', () => {
  let pairs = 0;
  for (const state of TICKET_STATUSES) {
    for (const action of ACTIONS) {
      const expected = EXPECTED[state][name(action)];
      assert.notEqual(expected, undefined, `the table has ${state} × ${name(action)}`);
      const got = transition(state, action);
      if (expected === null) {
        assert.equal(got.ok, false, `${state} × ${name(action)} is refused`);
        assert.match((got as { reason: string }).reason, /closed/);
      } else {
        assert.deepEqual(got, { ok: true, next: expected }, `${state} × ${name(action)}`);
      }
      pairs++;
    }
  }
  assert.equal(pairs, TICKET_STATUSES.length * ACTIONS.length);
  assert.equal(pairs, 48);
});

test('letters are Unicode letters of any script; digits, punctuation, spaces, symbols and marks are not', () => {
  assert.equal(letters('Hello'), 5);
  assert.equal(letters('Привет мир'), 9, 'Cyrillic');
  assert.equal(letters('服务器无法启动'), 7, 'CJK');
  assert.equal(letters('サーバー'), 4, 'katakana, with the prolonged sound mark (a letter, Lm)');
  assert.equal(letters('مرحبا'), 5, 'Arabic');
  assert.equal(letters('Ελληνικά'), 8, 'Greek');
  assert.equal(letters('1234567890 !?.,;:-_()[]{}@#$%^&*+=~ 😀 €'), 0);
  assert.equal(letters('e\u0301'), 1, 'a combining accent is a mark, not a letter');
  assert.equal(codePoints('😀😀'), 2, 'code points, not UTF-16 units');
  assert.equal(codePoints('𠀀'), 1, 'a CJK extension B character is one');
});

test('subject: at least one letter, at most 200 characters', () => {
  assert.equal(subjectProblem('Server down'), null);
  assert.equal(subjectProblem('Ж'), null, 'one Cyrillic letter is enough');
  assert.equal(subjectProblem('服'), null);
  assert.match(subjectProblem('12345 !!!')!, /at least one letter/);
  assert.match(subjectProblem('   ')!, /at least one letter/);
  assert.equal(subjectProblem(`  ${'a'.repeat(200)}  `), null, 'surrounding white space is not counted');
  assert.match(subjectProblem('a'.repeat(201))!, /at most 200/);
  assert.equal(subjectProblem('😀'.repeat(199) + 'a'), null, '200 code points, 399 UTF-16 units');
});

test('message: at least 25 characters and 15 letters, counted on code points and letters', () => {
  assert.equal(messageProblem('My server does not boot any more.'), null);
  assert.equal(messageProblem('Сервер не загружается после переустановки'), null, 'Cyrillic');
  assert.equal(messageProblem('我的服务器重新安装以后无法启动，请帮我看看是什么问题，谢谢。'), null, 'CJK: 30 characters, 27 letters');
  // 25 characters but only 14 letters.
  const fourteen = 'abcdefghijklmn 1234567890';
  assert.equal(codePoints(fourteen), 25);
  assert.match(messageProblem(fourteen)!, /25 characters .* 15 letters \(this one has 25 characters, 14 letters\)/);
  assert.equal(messageProblem('abcdefghijklmno 123456789'), null, '15 letters, 25 characters');
  // 15 letters but 24 characters.
  assert.match(messageProblem('abcdefghijklmno 12345678')!, /this one has 24 characters, 15 letters/);
  assert.match(messageProblem('1234567890123456789012345678901234567890')!, /0 letters/);
  assert.match(messageProblem('!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!')!, /0 letters/);
  assert.match(messageProblem(`  abcdefghijklmno 12345   `)!, /21 characters/, 'leading and trailing white space does not count');
  // Decomposed accents count as the one character a reader sees (NFC): 30 code points as sent, 17 as read.
  const decomposed = 'e\u0301'.repeat(13) + ' abc';
  assert.equal(codePoints(decomposed), 30);
  assert.match(messageProblem(decomposed)!, /this one has 17 characters, 16 letters/);
  assert.equal(messageProblem(decomposed), messageProblem('é'.repeat(13) + ' abc'));
  assert.match(messageProblem('a'.repeat(10_001))!, /at most 10000/);
});

test('staff replies and notes: anything that is not blank', () => {
  assert.equal(staffTextProblem('Done.'), null);
  assert.equal(staffTextProblem('👍'), null);
  assert.match(staffTextProblem(' \n\t ')!, /blank/);
  assert.match(staffTextProblem('x'.repeat(10_001))!, /at most/);
});
