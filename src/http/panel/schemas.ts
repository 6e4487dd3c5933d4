// Schemas the panel's own routes share.
import { type TSchema, Type } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A panel password as typed; its rules (core/panel/rules.ts) answer with field errors. */
export const Password = Type.String({ minLength: 1, maxLength: 1000 });
export const Email = Type.String({ minLength: 1, maxLength: 254 });
/** A TOTP code (6 digits) or a recovery code (xxxxx-xxxxx). */
export const Code = Type.String({ minLength: 1, maxLength: 32 });

export const Done = Type.Object({ done: Type.Boolean() });
