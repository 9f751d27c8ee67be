import { validate } from '../validation/validate';
import { ALL_ROLES, AUTH_CLASS_ROLES, azureScope, tokenEntitlements } from './permissions';
import { API_PREFIX, expressPath, findRoute, ROUTES, routePath } from './routes';

describe('route table (§3)', () => {
  it('when listed, then every path ends in / and every operation id is unique', () => {
    for (const route of ROUTES) expect(route.path).toMatch(/^\/.*\/$/);
    expect(new Set(ROUTES.map((route) => route.operationId)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((route) => `${route.method} ${route.path}`)).size).toBe(ROUTES.length);
  });

  it('when a literal and a parameter segment share a prefix, then the literal route comes first (§1.1)', () => {
    const toRegex = (path: string): RegExp => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    ROUTES.forEach((route, index) => {
      const shadowing = ROUTES.slice(0, index).find((earlier) => earlier.method === route.method && earlier.path.includes('{') && toRegex(earlier.path).test(route.path));
      expect(shadowing).toBeUndefined();
    });
  });

  it('when routes are mounted, then they live under /v1 with express parameters', () => {
    const route = findRoute('getReference');
    expect(API_PREFIX).toBe('/v1');
    expect(routePath(route)).toBe('/v1/references/{reference_id}/');
    expect(expressPath(route)).toBe('/v1/references/:reference_id/');
    expect(() => findRoute('nope')).toThrow('unknown route');
  });

  it.each([
    ['registerRobot', 'POST', '/robots/', 'W', 'robot.writer', 201],
    ['cycleRobotSecret', 'POST', '/robots/{robot_id}/secret/', 'W', 'robot.writer', 201],
    ['createEnhancementRequest', 'POST', '/enhancement-requests/', 'H', 'enhancement_request.writer', 202],
    ['requestSearchEnhancement', 'POST', '/enhancement-requests/search/', 'H', 'enhancement_request.writer', 202],
    ['updateAutomation', 'PUT', '/enhancement-requests/automations/{automation_id}/', 'H', 'enhancement_request.writer', 201],
    ['pollRobotEnhancementBatch', 'POST', '/robot-enhancement-batches/', 'H', 'enhancement_request.writer', 200],
    ['submitRobotEnhancementBatchResult', 'POST', '/robot-enhancement-batches/{robot_enhancement_batch_id}/results/', 'H', 'enhancement_request.writer', 202],
    ['createImportRecord', 'POST', '/imports/records/', 'I', 'import.writer', 201],
    ['registerImportBatch', 'POST', '/imports/records/{import_record_id}/batches/', 'I', 'import.writer', 202],
    ['finaliseImportRecord', 'POST', '/imports/records/{import_record_id}/finalise/', 'I', 'import.writer', 204],
    ['finaliseImportRecordPatch', 'PATCH', '/imports/records/{import_record_id}/finalise/', 'I', 'import.writer', 204],
    ['searchReferences', 'GET', '/references/search/', 'R', 'reference.reader', 200],
    ['makeDuplicateDecisions', 'POST', '/references/duplicate-decisions/', 'D', 'reference.deduplicator', 201],
    ['invokeDeduplication', 'POST', '/references/duplicate-decisions/invoke/', 'D', 'reference.deduplicator', 202],
    ['healthcheck', 'GET', '/system/healthcheck/', 'none', null, 200],
    ['repairIndex', 'POST', '/system/indices/{alias}/repair/', 'A', 'administrator', 202],
  ])('when %s is looked up, then it is %s %s with auth %s (%s) answering %d', (operationId, method, path, auth, permission, status) => {
    expect(findRoute(operationId)).toMatchObject({ method, path, auth, permission, successStatus: status });
  });

  it('when the renew-lease route answers, then it is bare text; the poll may also answer 204', () => {
    expect(findRoute('renewRobotEnhancementBatchLease').responseContentType).toBe('text/plain');
    expect(findRoute('pollRobotEnhancementBatch').alternativeResponses).toEqual([{ status: 204, description: 'No pending work for this robot' }]);
  });

  it('when every route with path parameters is checked, then its params schema names exactly the template parameters', () => {
    for (const route of ROUTES) {
      const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      expect(Object.keys(route.params?.properties ?? {})).toEqual(names);
    }
  });

  it('when the index repair alias is unknown, then path validation rejects it', () => {
    const params = findRoute('repairIndex').params;
    expect(params && validate(params, { alias: 'reference' }, 'path').ok).toBe(true);
    expect(params && validate(params, { alias: 'other' }, 'path').ok).toBe(false);
  });
});

describe('permissions (§4.1)', () => {
  it('when D routes are authorised, then they need reader and deduplicator', () => {
    expect(AUTH_CLASS_ROLES.D).toEqual(['reference.reader', 'reference.deduplicator']);
    expect(ALL_ROLES).toHaveLength(8);
    expect(azureScope('import.writer')).toBe('import.writer.all');
  });

  it('when a token holds the full-text reader role or the entitlement-writer scope, then the entitlements follow', () => {
    expect(tokenEntitlements(['reference.reader', 'reference.full_text.reader'])).toEqual(['full_text']);
    expect(tokenEntitlements(['robot.entitlement.writer.all'])).toEqual(['robot_entitlement_writer']);
    expect(tokenEntitlements(['reference.reader'])).toEqual([]);
  });
});
