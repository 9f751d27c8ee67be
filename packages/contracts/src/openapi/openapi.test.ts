import { readFileSync } from 'node:fs';
import { ROUTES } from '../http/routes';
import { validate } from '../validation/validate';
import { buildOpenApiDocument, renderOpenApiDocument } from './openapi';
import { OPENAPI_FILE } from './write-openapi';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { security: unknown[]; parameters?: { name: string; in: string; required: boolean }[]; responses: Record<string, unknown>; requestBody?: unknown }>>;
  components: { schemas: Record<string, Record<string, unknown>>; securitySchemes: Record<string, unknown> };
};

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument() as unknown as Doc;

  it('when compared with the committed openapi.json, then they are identical', () => {
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    if (committed !== renderOpenApiDocument()) {
      throw new Error('packages/contracts/openapi.json is out of date with the schemas: run `npm run openapi` and commit the result');
    }
  });

  it('when generated twice, then the text is the same', () => {
    expect(renderOpenApiDocument()).toBe(renderOpenApiDocument(buildOpenApiDocument()));
  });

  it('when generated, then it is OpenAPI 3.1 with every route under /v1', () => {
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations.sort()).toEqual(ROUTES.map((route) => `${route.method} /v1${route.path}`).sort());
  });

  it('when a hybrid route is documented, then bearer or the three robot HMAC headers secure it', () => {
    expect(doc.paths['/v1/robot-enhancement-batches/'].post.security).toEqual([{ bearerAuth: [] }, { robotSignature: [], robotClientId: [], robotTimestamp: [] }]);
    expect(doc.paths['/v1/system/healthcheck/'].get.security).toEqual([]);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['bearerAuth', 'robotSignature', 'robotClientId', 'robotTimestamp']);
  });

  it('when query parameters are documented, then required ones are marked', () => {
    const parameters = doc.paths['/v1/robot-enhancement-batches/'].post.parameters ?? [];
    expect(parameters.map((parameter) => [parameter.name, parameter.in, parameter.required])).toEqual([
      ['robot_id', 'query', true],
      ['limit', 'query', false],
      ['lease', 'query', false],
    ]);
  });

  it('when named schemas are used, then they are components referenced by $ref with discriminator mappings', () => {
    expect(doc.components.schemas.ExternalIdentifier.discriminator).toEqual({
      propertyName: 'identifier_type',
      mapping: {
        doi: '#/components/schemas/DOIIdentifier',
        pm_id: '#/components/schemas/PubMedIdentifier',
        open_alex: '#/components/schemas/OpenAlexIdentifier',
        eric: '#/components/schemas/ERICIdentifier',
        pro_quest: '#/components/schemas/ProQuestIdentifier',
        other: '#/components/schemas/OtherIdentifier',
      },
    });
    expect(doc.components.schemas.Reference.properties).toMatchObject({ visibility: { $ref: '#/components/schemas/Visibility', default: 'public' } });
    expect(doc.components.schemas.SingleRobotResult.properties).toMatchObject({
      error: { anyOf: [{ $ref: '#/components/schemas/RobotError' }, { type: 'null' }], default: null },
    });
    expect(JSON.stringify(doc)).not.toContain('"$id"');
  });

  it('when references are documented, then Reference carries duplicate_decision and search hits duplicate_determination, as sent', () => {
    const reference = doc.components.schemas.Reference.properties as Record<string, unknown>;
    expect(Object.keys(reference)).toEqual(['visibility', 'id', 'identifiers', 'enhancements', 'duplicate_decision']);
    expect(reference.duplicate_decision).toEqual({ anyOf: [{ $ref: '#/components/schemas/ActiveDuplicateDecision' }, { type: 'null' }] });
    expect(doc.components.schemas.ActiveDuplicateDecision).toMatchObject({
      required: ['duplicate_determination', 'canonical_reference_id'],
      properties: { duplicate_determination: { $ref: '#/components/schemas/TerminalDuplicateDetermination' } },
    });
    expect(doc.components.schemas.ReferenceSearchResult.properties).toMatchObject({ references: { items: { $ref: '#/components/schemas/SearchResultReference' } } });
    expect(doc.components.schemas.SearchResultReference.properties).toMatchObject({ duplicate_determination: { $ref: '#/components/schemas/TerminalDuplicateDetermination' } });
  });

  it('when an input object ignores unknown keys, then the document marks it; robot models still forbid them', () => {
    for (const name of ['DOIIdentifier', 'OtherIdentifier', 'Enhancement', 'AbstractContentEnhancement', 'Authorship', 'Pagination', 'Location']) {
      expect(doc.components.schemas[name]['x-destiny-unknown-keys']).toBe('drop');
    }
    expect(doc.components.schemas.RobotIn['x-destiny-unknown-keys']).toBeUndefined();
  });

  it('when the document refers to a component, then that component exists', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]);
    for (const name of new Set(refs)) expect(doc.components.schemas[name]).toBeDefined();
  });

  it('when a component schema is itself validated by Ajv, then it behaves like its TypeBox source', () => {
    const routeBody = ROUTES.find((route) => route.operationId === 'registerRobot')?.body;
    expect(routeBody && validate(routeBody, { name: 'n', description: 'd', owner: 'o', extra: 1 }, 'body').ok).toBe(false);
    expect(doc.components.schemas.RobotIn.additionalProperties).toBe(false);
  });
});
