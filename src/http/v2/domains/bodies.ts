// Request body pieces shared by the domain routes (single orders and bulk items take the same fields).
import { Type } from '@sinclair/typebox';
import { MAX_NAME_LENGTH } from '../../../core/domains/names.ts';
import { MAX_NAMESERVERS, MIN_NAMESERVERS } from '../../../core/domains/rules.ts';

const Text = (max: number, example: string, description?: string) => Type.String({ minLength: 1, maxLength: max, examples: [example], ...(description ? { description } : {}) });

export const DomainName = Type.String({
  minLength: 1, maxLength: MAX_NAME_LENGTH,
  description: 'A name directly under a TLD of the price list; IDNs welcome (`bücher.de`), any case, trailing dot allowed.',
  examples: ['example-shop.com'],
});

export const Years = (description: string) => Type.Integer({ minimum: 1, maximum: 10, description, examples: [1] });

export const Nameservers = Type.Array(Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH }), {
  minItems: MIN_NAMESERVERS, maxItems: MAX_NAMESERVERS,
  description: `${MIN_NAMESERVERS} to ${MAX_NAMESERVERS} distinct host names.`,
  examples: [['ns1.example.net', 'ns2.example.net']],
});

export const AuthCode = Type.String({ minLength: 1, maxLength: 255, description: 'The EPP auth code from the current registrar.', examples: ['Demo-Auth-2026'] });

export const Contact = Type.Object({
  first_name: Text(100, 'Ada'),
  last_name: Text(100, 'Lovelace'),
  email: Type.String({ format: 'email', maxLength: 254, examples: ['ada@example.com'] }),
  phone: Type.String({ pattern: '^\\+[0-9][0-9 .()-]{4,24}$', description: 'International, with the country code: +49.301234567', examples: ['+49.301234567'] }),
  address: Text(200, 'Unter den Linden 1'),
  city: Text(100, 'Berlin'),
  postal_code: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9 -]{0,14}$', examples: ['10117'] }),
  country: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2.', examples: ['DE'] }),
}, { additionalProperties: false, description: 'The registrant. Required for TLDs whose `requires_contact` is true (GET /domains/pricing), e.g. .de and .eu.' });

export const WhoisPrivacy = Type.Boolean({ description: 'Hide the registrant in WHOIS (free). Default: on where the TLD supports it; true on a TLD without it is 422.' });
export const AutoRenew = Type.Boolean({ description: 'Renew from the balance before expiry. Default true.' });
