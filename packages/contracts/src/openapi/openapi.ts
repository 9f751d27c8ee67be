import { type TSchema } from '@sinclair/typebox';
import { ROUTES, routePath, type RouteDefinition } from '../http/routes';
import { ErrorDetail, ValidationErrorBody } from '../schemas/system.schema';

// OpenAPI 3.1 document generated from the route table and the TypeBox schemas: every schema with
// an `$id` becomes a component and is referenced by `$ref` wherever it is used.

export const API_TITLE = 'DESTINY Reference Enhancement Repository';
export const API_VERSION = '0.1.0';

type JsonSchema = Record<string, unknown>;
type OpenApiDocument = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';

/** An occurrence of a named schema may add `null` to its type and a `default`; strip both. */
function canonicalForm(schema: JsonSchema): { base: JsonSchema; nullable: boolean; extras: JsonSchema } {
  const base: JsonSchema = { ...schema };
  const extras: JsonSchema = {};
  let nullable = false;
  if (Array.isArray(base.type) && base.type.includes('null')) {
    nullable = true;
    const types = (base.type as string[]).filter((type) => type !== 'null');
    base.type = types.length === 1 ? types[0] : types;
    if (Array.isArray(base.enum)) base.enum = (base.enum as unknown[]).filter((value) => value !== null);
  }
  for (const key of ['default', 'description'] as const) {
    if (key in base) {
      extras[key] = base[key];
      delete base[key];
    }
  }
  return { base, nullable, extras };
}

class SchemaConverter {
  readonly components = new Map<string, JsonSchema>();
  private readonly raw = new Map<string, string>();

  /** Converts a schema; named sub-schemas become `$ref`s (the root too, unless `inlineRoot`). */
  convert(schema: unknown, inlineRoot = false): unknown {
    return this.walk(schema, !inlineRoot);
  }

  private walk(schema: unknown, refNamed: boolean): unknown {
    if (Array.isArray(schema)) return schema.map((item) => this.walk(item, true));
    if (schema === null || typeof schema !== 'object') return schema;
    const record = schema as JsonSchema;
    if (refNamed && typeof record.$id === 'string') return this.reference(record);
    const result: JsonSchema = {};
    for (const [key, value] of Object.entries(record)) {
      if (key === '$id') continue;
      if (key === 'default' || key === 'const' || key === 'enum' || key === 'examples') {
        result[key] = value;
      } else if (key === 'properties' || key === 'patternProperties') {
        result[key] = Object.fromEntries(Object.entries(value as JsonSchema).map(([name, sub]) => [name, this.walk(sub, true)]));
      } else {
        result[key] = this.walk(value, true);
      }
    }
    if (record.discriminator !== undefined && Array.isArray(record.oneOf)) {
      result.discriminator = { ...(record.discriminator as JsonSchema), mapping: this.discriminatorMapping(record) };
    }
    return result;
  }

  private discriminatorMapping(record: JsonSchema): Record<string, string> {
    const propertyName = String((record.discriminator as JsonSchema).propertyName);
    const mapping: Record<string, string> = {};
    for (const variant of record.oneOf as JsonSchema[]) {
      const tag = ((variant.properties as Record<string, JsonSchema> | undefined)?.[propertyName] ?? {}).const;
      if (typeof tag === 'string' && typeof variant.$id === 'string') mapping[tag] = `${COMPONENT_PREFIX}${variant.$id}`;
    }
    return mapping;
  }

  private reference(record: JsonSchema): unknown {
    const name = String(record.$id);
    const { base, nullable, extras } = canonicalForm(record);
    const fingerprint = JSON.stringify(base);
    const known = this.raw.get(name);
    if (known === undefined) {
      this.raw.set(name, fingerprint);
      this.components.set(name, {});
      this.components.set(name, this.walk(base, false) as JsonSchema);
    } else if (known !== fingerprint) {
      throw new Error(`two different schemas are named ${name}`);
    }
    const ref = { $ref: `${COMPONENT_PREFIX}${name}` };
    return { ...(nullable ? { anyOf: [ref, { type: 'null' }] } : ref), ...extras };
  }
}

function parameters(converter: SchemaConverter, schema: TSchema | undefined, location: 'path' | 'query'): unknown[] {
  if (schema === undefined) return [];
  const object = schema as unknown as { properties: Record<string, TSchema>; required?: string[] };
  return Object.entries(object.properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (object.required ?? []).includes(name),
    schema: converter.convert(property),
  }));
}

function jsonContent(converter: SchemaConverter, schema: TSchema, contentType = 'application/json'): unknown {
  return { [contentType]: { schema: converter.convert(schema) } };
}

const SECURITY: Record<RouteDefinition['auth'], unknown[]> = {
  R: [{ bearerAuth: [] }],
  D: [{ bearerAuth: [] }],
  I: [{ bearerAuth: [] }],
  W: [{ bearerAuth: [] }],
  A: [{ bearerAuth: [] }],
  H: [{ bearerAuth: [] }, { robotSignature: [], robotClientId: [], robotTimestamp: [] }],
  none: [],
};

function operation(converter: SchemaConverter, route: RouteDefinition): unknown {
  const responses: Record<string, unknown> = {};
  const success: Record<string, unknown> = { description: route.summary };
  if (route.response !== null && route.successStatus !== 204) {
    success.content = jsonContent(converter, route.response, route.responseContentType ?? 'application/json');
  }
  responses[String(route.successStatus)] = success;
  for (const alternative of route.alternativeResponses ?? []) {
    const response: Record<string, unknown> = { description: alternative.description };
    if (alternative.schema !== undefined) response.content = jsonContent(converter, alternative.schema);
    responses[String(alternative.status)] = response;
  }
  const errorContent = (): unknown => jsonContent(converter, ErrorDetail);
  if (route.auth !== 'none') {
    responses['401'] = { description: 'Missing or invalid credentials', content: errorContent() };
    responses['403'] = { description: 'Missing role or entitlement', content: errorContent() };
  }
  if (route.params !== undefined) responses['404'] = { description: 'The entity named in the path does not exist', content: errorContent() };
  if (route.params !== undefined || route.query !== undefined || route.body !== undefined) {
    responses['422'] = { description: 'Request validation failed', content: jsonContent(converter, ValidationErrorBody) };
  }
  // Every authenticated route is served by a backend service and its database; either may be away for a moment.
  if (route.auth !== 'none' && responses['503'] === undefined) {
    responses['503'] = { description: 'A backend service or its database is unavailable; retry after a short wait', content: errorContent() };
  }
  const result: Record<string, unknown> = {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    security: SECURITY[route.auth],
  };
  const params = [...parameters(converter, route.params, 'path'), ...parameters(converter, route.query, 'query')];
  if (params.length > 0) result.parameters = params;
  if (route.body !== undefined) result.requestBody = { required: true, content: jsonContent(converter, route.body) };
  result.responses = responses;
  if (route.permission !== null) result['x-destiny-permission'] = route.permission;
  result['x-destiny-auth'] = route.auth;
  return result;
}

/** The OpenAPI 3.1 document of the whole API, deterministic for a given route table. */
export function buildOpenApiDocument(routes: readonly RouteDefinition[] = ROUTES): OpenApiDocument {
  const converter = new SchemaConverter();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = routePath(route);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(converter, route);
  }
  const schemas = Object.fromEntries([...converter.components.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    openapi: '3.1.0',
    info: {
      title: API_TITLE,
      version: API_VERSION,
      description: 'Wire contract of the DESTINY repository. Every route lives under /v1 and ends in /.',
    },
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Bearer token from the identity server' },
        robotSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'Robot HMAC: `Signature <hex>` = HMAC-SHA256(client_secret, body || ":" || client_uuid_bytes || ":" || timestamp)',
        },
        robotClientId: { type: 'apiKey', in: 'header', name: 'X-Client-Id', description: 'The robot id' },
        robotTimestamp: { type: 'apiKey', in: 'header', name: 'X-Request-Timestamp', description: 'Unix time in seconds, Python float text' },
      },
    },
  };
}

/** The document as written to `openapi.json`: two-space indentation and a final newline. */
export function renderOpenApiDocument(document: OpenApiDocument = buildOpenApiDocument()): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
