// Lint is kept fast: no type-aware rules (tsc already runs in `npm run check`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'dist/**', 'packages/*/dist/**', 'packages/sdk/src/generated/**', '.eslintcache', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['fastify', 'fastify/*', '@fastify/*', '**/http/**'], message: 'The core never imports the HTTP layer.' },
        { group: ['pg'], message: 'The core reaches PostgreSQL only through src/db repositories.' },
        { group: ['kysely'], importNames: ['sql'], message: 'SQL text belongs in src/db, not in the core.' },
        { group: ['**/db/connection.ts'], importNames: ['pgCode', 'pgConstraint'], message: 'What the database refused is asked through src/db/refusals.ts (isUniqueViolation(e, name), …).' },
      ] }],
      // A SQLSTATE ('23505', '55P03', 'HC002': five letters or digits, one a digit at least) is matched in src/db.
      'no-restricted-syntax': ['error', {
        selector: 'Literal[value=/^(?=.*[0-9])[0-9A-Z]{5}$/]',
        message: 'SQLSTATEs are matched in src/db (refusals.ts, failures.ts); the core asks isUniqueViolation(e, name) and the like.',
      }],
    },
  },
);
