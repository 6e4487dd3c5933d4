// Pure rules of the customer panel: passwords, recovery codes, TOTP steps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { passwordProblem } from '../../src/core/panel/rules.ts';
import { looksLikeRecoveryCode, newRecoveryCode, newToken, recoveryCodeHash } from '../../src/core/panel/secrets.ts';
import { enrolment, newTotpSecret, totpCode, totpStep } from '../../src/core/panel/totp.ts';

test('passwords: at least 10 characters (counted as people count them), at most 200, not one or two characters repeated, not the email', () => {
  assert.equal(passwordProblem('short'), 'must be at least 10 characters');
  assert.equal(passwordProblem('ééééééééé'), 'must be at least 10 characters', '9 characters, 18 bytes');
  assert.equal(passwordProblem('x'.repeat(201)), 'must be at most 200 characters');
  assert.equal(passwordProblem('abababababab'), 'must not be one or two characters repeated');
  assert.equal(passwordProblem('Ada@Example.com', 'ada@example.com'), 'must not be your email address');
  assert.equal(passwordProblem('correct horse battery staple'), null);
  assert.equal(passwordProblem('🦄🦄🐉🐉🌈🌈⭐⭐🍀🍀'), null, 'any characters');
});

test('recovery codes: xxxxx-xxxxx of an unambiguous alphabet; typed in any case, with or without the dash, they hash alike', () => {
  const codes = Array.from({ length: 200 }, newRecoveryCode);
  assert.ok(codes.every((c) => /^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/.test(c)), codes.find((c) => !/^[a-z2-9]{5}-[a-z2-9]{5}$/.test(c)));
  assert.equal(new Set(codes).size, codes.length);
  const c = codes[0]!;
  assert.equal(recoveryCodeHash(c.toUpperCase()), recoveryCodeHash(c));
  assert.equal(recoveryCodeHash(c.replace('-', ' ')), recoveryCodeHash(c));
  assert.ok(looksLikeRecoveryCode(c) && looksLikeRecoveryCode(c.replace('-', '')));
  assert.ok(!looksLikeRecoveryCode('123456'));
  assert.match(newToken(), /^[A-Za-z0-9_-]{43}$/);
});

test('TOTP: a code is valid for its step and one step either side, and names its step; an enrolment carries the URI and its QR code', () => {
  const secret = newTotpSecret();
  const now = new Date('2026-11-27T12:00:10Z');
  const step = Math.floor(now.getTime() / 30_000);
  assert.equal(totpStep(secret, 'a@example.com', totpCode(secret, now), now), step);
  assert.equal(totpStep(secret, 'a@example.com', totpCode(secret, new Date(now.getTime() + 30_000)), now), step + 1);
  assert.equal(totpStep(secret, 'a@example.com', totpCode(secret, new Date(now.getTime() - 30_000)), now), step - 1);
  assert.equal(totpStep(secret, 'a@example.com', totpCode(secret, new Date(now.getTime() + 90_000)), now), null);
  assert.equal(totpStep(secret, 'a@example.com', ` ${totpCode(secret, now).slice(0, 3)} ${totpCode(secret, now).slice(3)} `, now), step, 'spaces are ignored');
  assert.equal(totpStep(secret, 'a@example.com', 'abcdef', now), null);
  const e = enrolment(secret, 'a@example.com');
  assert.match(e.uri, new RegExp(`^otpauth://totp/Hostcloud:a%40example\\.com\\?.*secret=${secret}`));
  assert.match(e.qrSvg, /^<svg[^>]*viewBox/);
});
