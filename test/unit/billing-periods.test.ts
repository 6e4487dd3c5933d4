// Period arithmetic of recurring billing, table-driven: month ends, leap days, a 31-day month
// after a 28-day one, cycles started on the 31st, yearly cycles, and DST dates (periods are UTC).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addMonthsAnchored, periodEnd, periodLabel } from '../../src/core/billing/periods.ts';

const d = (s: string) => new Date(s);

test('a period ends on the anchor day of the next cycle, clamped to short months and back again', () => {
  const cases: [string, string, 'monthly' | 'yearly', string, string][] = [
    // start, anchor, cycle, expected end, why
    ['2026-12-01T00:00:00Z', '2026-12-01T00:00:00Z', 'monthly', '2027-01-01T00:00:00Z', 'across the new year'],
    ['2026-01-31T10:00:00Z', '2026-01-31T10:00:00Z', 'monthly', '2026-02-28T10:00:00Z', 'the 31st into a 28-day February'],
    ['2026-02-28T10:00:00Z', '2026-01-31T10:00:00Z', 'monthly', '2026-03-31T10:00:00Z', 'back to the 31st after February (31 days after 28)'],
    ['2026-03-31T10:00:00Z', '2026-01-31T10:00:00Z', 'monthly', '2026-04-30T10:00:00Z', 'the 31st into a 30-day month'],
    ['2026-04-30T10:00:00Z', '2026-01-31T10:00:00Z', 'monthly', '2026-05-31T10:00:00Z', 'and back to the 31st'],
    ['2028-01-31T08:15:00Z', '2028-01-31T08:15:00Z', 'monthly', '2028-02-29T08:15:00Z', 'the 31st into a leap February'],
    ['2028-02-29T08:15:00Z', '2028-01-31T08:15:00Z', 'monthly', '2028-03-31T08:15:00Z', 'from the leap day back to the 31st'],
    ['2028-01-29T00:00:00Z', '2028-01-29T00:00:00Z', 'monthly', '2028-02-29T00:00:00Z', 'the 29th lands on the leap day'],
    ['2027-01-29T00:00:00Z', '2027-01-29T00:00:00Z', 'monthly', '2027-02-28T00:00:00Z', 'the 29th in a common year'],
    ['2026-03-29T00:30:00Z', '2026-03-29T00:30:00Z', 'monthly', '2026-04-29T00:30:00Z', 'EU DST starts 2026-03-29: UTC time of day unchanged'],
    ['2026-10-25T00:30:00Z', '2026-10-25T00:30:00Z', 'monthly', '2026-11-25T00:30:00Z', 'EU DST ends 2026-10-25'],
    ['2026-03-08T07:00:00Z', '2026-03-08T07:00:00Z', 'monthly', '2026-04-08T07:00:00Z', 'US DST starts 2026-03-08'],
    ['2026-11-30T23:59:59Z', '2026-11-30T23:59:59Z', 'monthly', '2026-12-30T23:59:59Z', 'last second of a month'],
    ['2028-02-29T12:00:00Z', '2028-02-29T12:00:00Z', 'yearly', '2029-02-28T12:00:00Z', 'a yearly cycle from a leap day'],
    ['2029-02-28T12:00:00Z', '2028-02-29T12:00:00Z', 'yearly', '2030-02-28T12:00:00Z', 'and the year after'],
    ['2031-02-28T12:00:00Z', '2028-02-29T12:00:00Z', 'yearly', '2032-02-29T12:00:00Z', 'back to the 29th in the next leap year'],
    ['2026-12-31T00:00:00Z', '2026-12-31T00:00:00Z', 'yearly', '2027-12-31T00:00:00Z', 'a yearly cycle on the 31st of December'],
  ];
  for (const [start, anchor, cycle, end, why] of cases) {
    assert.equal(periodEnd(d(start), cycle, d(anchor)).toISOString(), d(end).toISOString(), why);
  }
});

test('twelve monthly periods from the 31st cover the year with no gap and no overlap', () => {
  const anchor = d('2027-12-31T06:00:00Z');
  let start = anchor;
  const ends: string[] = [];
  for (let i = 0; i < 12; i++) {
    const end = periodEnd(start, 'monthly', anchor);
    assert.ok(end > start);
    ends.push(end.toISOString().slice(0, 10));
    start = end;
  }
  assert.deepEqual(ends, ['2028-01-31', '2028-02-29', '2028-03-31', '2028-04-30', '2028-05-31', '2028-06-30',
    '2028-07-31', '2028-08-31', '2028-09-30', '2028-10-31', '2028-11-30', '2028-12-31']);
  // The same as counting months from the anchor: no drift.
  assert.equal(addMonthsAnchored(anchor, 12, anchor).toISOString(), start.toISOString());
});

test('the ledger names a period by its UTC dates', () => {
  assert.equal(periodLabel(d('2026-12-01T00:00:00Z'), d('2027-01-01T00:00:00Z')), '2026-12-01 → 2027-01-01');
});

test('billing settings: defaults BILLING_INTERVAL_S 300, SUSPEND_GRACE_DAYS 14, DOMAIN_RENEW_DAYS 30; bad values refused', async () => {
  const { loadConfig } = await import('../../src/config.ts');
  const c = loadConfig({});
  assert.deepEqual([c.billingIntervalS, c.suspendGraceDays, c.domainRenewDays], [300, 14, 30]);
  const set = loadConfig({ BILLING_INTERVAL_S: '60', SUSPEND_GRACE_DAYS: '7', DOMAIN_RENEW_DAYS: '45' });
  assert.deepEqual([set.billingIntervalS, set.suspendGraceDays, set.domainRenewDays], [60, 7, 45]);
  assert.throws(() => loadConfig({ BILLING_INTERVAL_S: '0' }), /BILLING_INTERVAL_S must be between 1 and 86400/);
  assert.throws(() => loadConfig({ SUSPEND_GRACE_DAYS: 'two weeks' }), /SUSPEND_GRACE_DAYS must be a whole number/);
});
