// A new API key as answered once with its secret: by the admin API and by the customer panel
// (kept here, not in either, so that neither folder imports the other).
import { Type } from '@sinclair/typebox';
import { ApiKeySchema } from './v2/presenters.ts';

export const NewKeySchema = Type.Composite([ApiKeySchema, Type.Object({ key: Type.String({ description: 'The secret; shown only in this response' }) })]);
