/** This package's version (test/packages/pack.test.ts holds it to package.json). */
export const VERSION = '0.1.0';
