/**
 * The routes' validators and answer serializers, compiled once per process. Fastify makes new schema compilers for
 * every app it builds, and compiling the routes' schemas was most of what building an app cost (about 145 ms of
 * 220 ms). A server process builds one app, so there this changes nothing; the test suites build well over a thousand,
 * and each app after the first in a process reuses what was compiled for the first.
 *
 * A validator or a serializer is a pure function of its schema and the compiler's options, so equal schemas (compared
 * by their JSON, since some routes write theirs inline and so make a new object per app) share one.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
import { validatorOptions } from './schemas';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type RouteCompiler = (route: { schema?: unknown }) => unknown;

/** The compiler, remembering what it compiled for each schema. */
function remembering(compile: RouteCompiler): RouteCompiler {
  const compiled = new Map<string, unknown>();
  return (route) => {
    const key = JSON.stringify(route.schema);
    if (!compiled.has(key)) compiled.set(key, compile(route));
    return compiled.get(key);
  };
}

/** A compilers' factory whose compilers, one per distinct set of options and external schemas, remember. */
function rememberingFactory(factory: (externalSchemas: unknown, options: unknown) => RouteCompiler) {
  const compilers = new Map<string, RouteCompiler>();
  return (externalSchemas: unknown, options: unknown) => {
    const key = JSON.stringify([externalSchemas, options]);
    let compiler = compilers.get(key);
    if (!compiler) compilers.set(key, (compiler = remembering(factory(externalSchemas, options))));
    return compiler;
  };
}

const validators = rememberingFactory(AjvCompiler() as unknown as (externalSchemas: unknown, options: unknown) => RouteCompiler);
const serializers = rememberingFactory(SerializerSelector() as unknown as (externalSchemas: unknown, options: unknown) => RouteCompiler);

/** For the app's options (`schemaController.compilersFactory`): its routes' validators and serializers, once per process. */
export const onePerProcess = { buildValidator: validators, buildSerializer: serializers } as unknown as CompilersFactory;

/**
 * The merchant API's and the desk's validator compiler: every problem of a request at once (the page's routes stop at
 * the first; their bodies are small and arrays bounded), nothing coerced, removed or filled in.
 */
export const everyProblemCompiler = () =>
  validators({}, {
    customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: true, allowUnionTypes: true, ...validatorOptions },
  }) as FastifySchemaCompiler<unknown>;
