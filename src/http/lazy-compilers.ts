// Route schemas compiled on a route's first use instead of at start-up. The API registers some
// 300 routes (v2, v1, admin) with a validator per request part and a serializer per response
// status; compiling them all took about a second of every start and tens of MB of code and heap
// that stay resident even though a process serves a few routes most of the time. The first
// request of a route pays its compile (a few ms); a schema that cannot compile fails that route's
// requests, and the test suite calls every route.
import type { FastifySchemaCompiler } from 'fastify';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Validate = ((data: unknown) => unknown) & { errors?: unknown };

/** A validator compiler whose validators compile on their first call; `errors` is forwarded (Fastify reads it). */
export function lazyValidators(compiler: FastifySchemaCompiler<object>): FastifySchemaCompiler<object> {
  return (route) => {
    let compiled: Validate | undefined;
    const validate: Validate = (data) => {
      compiled ??= compiler(route) as Validate;
      const result = compiled(data);
      validate.errors = compiled.errors;
      return result;
    };
    return validate as ReturnType<FastifySchemaCompiler<object>>;
  };
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's own serializer factory (fast-json-stringify), each serializer built on its first call. */
export function lazySerializers(): SerializerFactory {
  const factory = SerializerSelector();
  return ((externalSchemas: unknown, options: unknown) => {
    const build = (factory as (e: unknown, o: unknown) => (route: unknown) => (data: unknown) => string)(externalSchemas, options);
    return (route: unknown) => {
      let serialize: ((data: unknown) => string) | undefined;
      return (data: unknown) => (serialize ??= build(route))(data);
    };
  }) as unknown as SerializerFactory;
}
