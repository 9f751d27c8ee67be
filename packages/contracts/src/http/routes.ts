import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { JsonObject, Uuid } from '../schemas/common.schema';
import {
  DeduplicationCandidatesIn,
  DeduplicationCandidatesResult,
  InvokeDeduplicationIn,
  MakeDuplicateDecisionResults,
  MakeDuplicateDecisionsIn,
} from '../schemas/deduplication.schema';
import {
  AutomationPathParams,
  EnhancementRequestIn,
  EnhancementRequestPathParams,
  EnhancementRequestRead,
  RobotAutomation,
  RobotAutomationIn,
  SearchEnhancementRequestIn,
  SearchEnhancementRequestQuery,
  SearchEnhancementRequestRead,
  SingleEnhancementRequestIn,
  SingleEnhancementRequestRead,
  SingleRobotResult,
} from '../schemas/enhancement-request.schema';
import {
  ImportBatchIn,
  ImportBatchPathParams,
  ImportBatchRead,
  ImportBatchSummary,
  ImportRecordIn,
  ImportRecordListQuery,
  ImportRecordPathParams,
  ImportRecordRead,
  ImportResultListQuery,
  ImportResultRead,
} from '../schemas/import.schema';
import {
  Reference,
  ReferenceIdsSearchResult,
  ReferenceLookupQuery,
  ReferencePathParams,
  ReferenceSearchIdsQuery,
  ReferenceSearchQuery,
  ReferenceSearchResult,
  SearchResultTotal,
} from '../schemas/reference.schema';
import {
  RenewLeaseQuery,
  RobotEnhancementBatch,
  RobotEnhancementBatchPathParams,
  RobotEnhancementBatchPollQuery,
  RobotEnhancementBatchRead,
  RobotEnhancementBatchResult,
} from '../schemas/robot-batch.schema';
import { ProvisionedRobot, Robot, RobotIn, RobotPathParams, RobotUpdateIn } from '../schemas/robot.schema';
import { HealthcheckQuery, IndexRepairPathParams, IndexRepairResponse, StatusOk } from '../schemas/system.schema';
import { AUTH_CLASS_ROLES, type AuthClass, type Role } from './permissions';

// The route table of contract §3: read by the gateway (routing, auth, validation) and by the
// OpenAPI generator. Literal segments come before parameter segments (§1.1), so registering the
// routes in this order is correct.

export const API_PREFIX = '/v1';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH';

export interface AlternativeResponse {
  status: number;
  description: string;
  /** Absent = no body. */
  schema?: TSchema;
}

export interface RouteDefinition {
  operationId: string;
  method: HttpMethod;
  /** Path under `API_PREFIX`, always ending in `/`, parameters as `{name}`. */
  path: string;
  auth: AuthClass;
  /** The role a bearer token must hold (D routes also need `reference.reader`); null = no auth. */
  permission: Role | null;
  successStatus: number;
  params?: TObject;
  query?: TObject;
  body?: TSchema;
  /** Success body schema; null = no body (204, or the JSON `null` of the invoke route). */
  response: TSchema | null;
  /** Default `application/json`; renew-lease answers bare text. */
  responseContentType?: 'application/json' | 'text/plain';
  alternativeResponses?: AlternativeResponse[];
  summary: string;
  tag: string;
}

const permission = (auth: AuthClass): Role | null => {
  const roles = AUTH_CLASS_ROLES[auth];
  return roles.length === 0 ? null : roles[roles.length - 1];
};

function route(definition: Omit<RouteDefinition, 'permission'>): RouteDefinition {
  return { ...definition, permission: permission(definition.auth) };
}

const SingleRequestParams = Type.Object({ enhancement_request_id: Uuid() });
const ExportPathParams = Type.Object({ export_id: Uuid() });

export const ROUTES: readonly RouteDefinition[] = [
  // Robots (§9)
  route({ operationId: 'listRobots', method: 'GET', path: '/robots/', auth: 'W', successStatus: 200, response: Type.Array(Robot), summary: 'List robots', tag: 'robots' }),
  route({ operationId: 'registerRobot', method: 'POST', path: '/robots/', auth: 'W', successStatus: 201, body: RobotIn, response: ProvisionedRobot, summary: 'Register a robot', tag: 'robots' }),
  route({ operationId: 'getRobot', method: 'GET', path: '/robots/{robot_id}/', auth: 'W', successStatus: 200, params: RobotPathParams, response: Robot, summary: 'Get a robot', tag: 'robots' }),
  route({ operationId: 'updateRobot', method: 'PUT', path: '/robots/{robot_id}/', auth: 'W', successStatus: 200, params: RobotPathParams, body: RobotUpdateIn, response: Robot, summary: 'Update a robot', tag: 'robots' }),
  route({ operationId: 'cycleRobotSecret', method: 'POST', path: '/robots/{robot_id}/secret/', auth: 'W', successStatus: 201, params: RobotPathParams, response: ProvisionedRobot, summary: 'Cycle a robot secret', tag: 'robots' }),

  // Enhancement requests: literal segments first (§1.1)
  route({
    operationId: 'requestSearchEnhancement', method: 'POST', path: '/enhancement-requests/search/', auth: 'H', successStatus: 202,
    query: SearchEnhancementRequestQuery, body: SearchEnhancementRequestIn, response: SearchEnhancementRequestRead,
    alternativeResponses: [{ status: 200, description: 'Dry run: the number of matching references', schema: SearchResultTotal }],
    summary: 'Request enhancement of every reference matching a search', tag: 'enhancement-requests',
  }),
  route({ operationId: 'getSearchEnhancementRequest', method: 'GET', path: '/enhancement-requests/search/{enhancement_request_id}/', auth: 'H', successStatus: 200, params: EnhancementRequestPathParams, response: SearchEnhancementRequestRead, summary: 'Get a search enhancement request', tag: 'enhancement-requests' }),
  route({ operationId: 'listAutomations', method: 'GET', path: '/enhancement-requests/automations/', auth: 'H', successStatus: 200, response: Type.Array(RobotAutomation), summary: 'List automations', tag: 'automations' }),
  route({ operationId: 'createAutomation', method: 'POST', path: '/enhancement-requests/automations/', auth: 'H', successStatus: 201, body: RobotAutomationIn, response: RobotAutomation, summary: 'Register an automation', tag: 'automations' }),
  route({ operationId: 'updateAutomation', method: 'PUT', path: '/enhancement-requests/automations/{automation_id}/', auth: 'H', successStatus: 201, params: AutomationPathParams, body: RobotAutomationIn, response: RobotAutomation, summary: 'Replace an automation', tag: 'automations' }),
  route({ operationId: 'requestSingleEnhancement', method: 'POST', path: '/enhancement-requests/single-requests/', auth: 'H', successStatus: 202, body: SingleEnhancementRequestIn, response: SingleEnhancementRequestRead, summary: 'Request a single enhancement (the service calls the robot)', tag: 'single-requests' }),
  route({ operationId: 'getSingleEnhancementRequest', method: 'GET', path: '/enhancement-requests/single-requests/{enhancement_request_id}/', auth: 'H', successStatus: 200, params: SingleRequestParams, response: SingleEnhancementRequestRead, summary: 'Get a single enhancement request', tag: 'single-requests' }),
  route({
    operationId: 'reportSingleRobotResult', method: 'POST', path: '/enhancement-requests/single-requests/{enhancement_request_id}/', auth: 'H', successStatus: 201,
    params: SingleRequestParams, body: SingleRobotResult, response: SingleEnhancementRequestRead,
    alternativeResponses: [{ status: 200, description: 'The robot reported an error', schema: SingleEnhancementRequestRead }],
    summary: 'Robot reports the result of a single request', tag: 'single-requests',
  }),
  route({
    operationId: 'reportSingleRobotResultLegacyPath', method: 'POST', path: '/enhancement-requests/single-requests/{enhancement_request_id}/results/', auth: 'H', successStatus: 201,
    params: SingleRequestParams, body: SingleRobotResult, response: SingleEnhancementRequestRead,
    alternativeResponses: [{ status: 200, description: 'The robot reported an error', schema: SingleEnhancementRequestRead }],
    summary: 'Robot reports the result of a single request (last reference path)', tag: 'single-requests',
  }),
  route({ operationId: 'createEnhancementRequest', method: 'POST', path: '/enhancement-requests/', auth: 'H', successStatus: 202, body: EnhancementRequestIn, response: EnhancementRequestRead, summary: 'Request enhancement of references by id', tag: 'enhancement-requests' }),
  route({ operationId: 'getEnhancementRequest', method: 'GET', path: '/enhancement-requests/{enhancement_request_id}/', auth: 'H', successStatus: 200, params: EnhancementRequestPathParams, response: EnhancementRequestRead, summary: 'Get an enhancement request', tag: 'enhancement-requests' }),

  // Robot enhancement batches (§12)
  route({
    operationId: 'pollRobotEnhancementBatch', method: 'POST', path: '/robot-enhancement-batches/', auth: 'H', successStatus: 200,
    query: RobotEnhancementBatchPollQuery, response: RobotEnhancementBatch,
    alternativeResponses: [{ status: 204, description: 'No pending work for this robot' }],
    summary: 'Lease a batch of pending enhancements', tag: 'robot-enhancement-batches',
  }),
  route({ operationId: 'getRobotEnhancementBatch', method: 'GET', path: '/robot-enhancement-batches/{robot_enhancement_batch_id}/', auth: 'H', successStatus: 200, params: RobotEnhancementBatchPathParams, response: RobotEnhancementBatch, summary: 'Get a robot enhancement batch (URLs re-signed)', tag: 'robot-enhancement-batches' }),
  route({
    operationId: 'submitRobotEnhancementBatchResult', method: 'POST', path: '/robot-enhancement-batches/{robot_enhancement_batch_id}/results/', auth: 'H', successStatus: 202,
    params: RobotEnhancementBatchPathParams, body: RobotEnhancementBatchResult, response: RobotEnhancementBatchRead,
    alternativeResponses: [{ status: 200, description: 'The robot reported a whole-batch error', schema: RobotEnhancementBatchRead }],
    summary: 'Submit the result of a batch', tag: 'robot-enhancement-batches',
  }),
  route({
    operationId: 'renewRobotEnhancementBatchLease', method: 'PATCH', path: '/robot-enhancement-batches/{robot_enhancement_batch_id}/renew-lease/', auth: 'H', successStatus: 200,
    params: RobotEnhancementBatchPathParams, query: RenewLeaseQuery, response: Type.String({ description: 'New expiry, Python isoformat with offset' }), responseContentType: 'text/plain',
    summary: 'Renew the lease of a batch', tag: 'robot-enhancement-batches',
  }),

  // Imports (§8)
  route({ operationId: 'listImportRecords', method: 'GET', path: '/imports/records/', auth: 'I', successStatus: 200, query: ImportRecordListQuery, response: Type.Array(ImportRecordRead), summary: 'List import records', tag: 'imports' }),
  route({ operationId: 'createImportRecord', method: 'POST', path: '/imports/records/', auth: 'I', successStatus: 201, body: ImportRecordIn, response: ImportRecordRead, summary: 'Create an import record', tag: 'imports' }),
  route({ operationId: 'getImportRecord', method: 'GET', path: '/imports/records/{import_record_id}/', auth: 'I', successStatus: 200, params: ImportRecordPathParams, response: ImportRecordRead, summary: 'Get an import record', tag: 'imports' }),
  route({ operationId: 'listImportBatches', method: 'GET', path: '/imports/records/{import_record_id}/batches/', auth: 'I', successStatus: 200, params: ImportRecordPathParams, response: Type.Array(ImportBatchRead), summary: 'List the batches of an import record', tag: 'imports' }),
  route({ operationId: 'registerImportBatch', method: 'POST', path: '/imports/records/{import_record_id}/batches/', auth: 'I', successStatus: 202, params: ImportRecordPathParams, body: ImportBatchIn, response: ImportBatchRead, summary: 'Register an import batch', tag: 'imports' }),
  route({ operationId: 'getImportBatch', method: 'GET', path: '/imports/records/{import_record_id}/batches/{import_batch_id}/', auth: 'I', successStatus: 200, params: ImportBatchPathParams, response: ImportBatchRead, summary: 'Get an import batch', tag: 'imports' }),
  route({ operationId: 'getImportBatchSummary', method: 'GET', path: '/imports/records/{import_record_id}/batches/{import_batch_id}/summary/', auth: 'I', successStatus: 200, params: ImportBatchPathParams, response: ImportBatchSummary, summary: 'Get the summary of an import batch', tag: 'imports' }),
  route({ operationId: 'listImportResults', method: 'GET', path: '/imports/records/{import_record_id}/batches/{import_batch_id}/results/', auth: 'I', successStatus: 200, params: ImportBatchPathParams, query: ImportResultListQuery, response: Type.Array(ImportResultRead), summary: 'List the results of an import batch', tag: 'imports' }),
  route({ operationId: 'finaliseImportRecord', method: 'POST', path: '/imports/records/{import_record_id}/finalise/', auth: 'I', successStatus: 204, params: ImportRecordPathParams, response: null, summary: 'Finalise an import record', tag: 'imports' }),
  route({ operationId: 'finaliseImportRecordPatch', method: 'PATCH', path: '/imports/records/{import_record_id}/finalise/', auth: 'I', successStatus: 204, params: ImportRecordPathParams, response: null, summary: 'Finalise an import record (reference impl method)', tag: 'imports' }),

  // References (§7): literal segments before `{reference_id}` (§1.1)
  route({ operationId: 'searchReferences', method: 'GET', path: '/references/search/', auth: 'R', successStatus: 200, query: ReferenceSearchQuery, response: ReferenceSearchResult, summary: 'Search references', tag: 'references' }),
  route({ operationId: 'searchReferenceIds', method: 'GET', path: '/references/search/ids/', auth: 'R', successStatus: 200, query: ReferenceSearchIdsQuery, response: ReferenceIdsSearchResult, summary: 'Search reference ids (first 10,000)', tag: 'references' }),
  route({ operationId: 'searchReferenceFacets', method: 'GET', path: '/references/search/facets/', auth: 'R', successStatus: 200, query: ReferenceSearchIdsQuery, response: JsonObject(), summary: 'Facet counts (not in the spec)', tag: 'references' }),
  route({ operationId: 'searchReferenceCrossFacets', method: 'GET', path: '/references/search/cross-facets/', auth: 'R', successStatus: 200, query: ReferenceSearchIdsQuery, response: JsonObject(), summary: 'Cross-facet counts (not in the spec)', tag: 'references' }),
  route({ operationId: 'createSearchExport', method: 'POST', path: '/references/search/exports/', auth: 'R', successStatus: 202, query: ReferenceSearchIdsQuery, response: JsonObject(), summary: 'Start an export of a search (not in the spec)', tag: 'exports' }),
  route({ operationId: 'getSearchExport', method: 'GET', path: '/references/search/exports/{export_id}/', auth: 'R', successStatus: 200, params: ExportPathParams, response: JsonObject(), summary: 'Get a search export (not in the spec)', tag: 'exports' }),
  route({ operationId: 'createReferenceExport', method: 'POST', path: '/references/exports/', auth: 'R', successStatus: 202, body: JsonObject(), response: JsonObject(), summary: 'Start an export of references by id (not in the spec)', tag: 'exports' }),
  route({ operationId: 'getReferenceExport', method: 'GET', path: '/references/exports/{export_id}/', auth: 'R', successStatus: 200, params: ExportPathParams, response: JsonObject(), summary: 'Get a reference export (not in the spec)', tag: 'exports' }),
  route({ operationId: 'makeDuplicateDecisions', method: 'POST', path: '/references/duplicate-decisions/', auth: 'D', successStatus: 201, body: MakeDuplicateDecisionsIn, response: MakeDuplicateDecisionResults, summary: 'Make manual duplicate decisions', tag: 'deduplication' }),
  route({ operationId: 'invokeDeduplication', method: 'POST', path: '/references/duplicate-decisions/invoke/', auth: 'D', successStatus: 202, body: InvokeDeduplicationIn, response: Type.Null(), summary: 'Queue re-deduplication of references', tag: 'deduplication' }),
  route({ operationId: 'evaluateDeduplicationCandidates', method: 'POST', path: '/references/deduplication/candidates/', auth: 'D', successStatus: 200, body: DeduplicationCandidatesIn, response: DeduplicationCandidatesResult, summary: 'Read-only candidate selection (evaluation)', tag: 'deduplication' }),
  route({ operationId: 'lookupReferences', method: 'GET', path: '/references/', auth: 'R', successStatus: 200, query: ReferenceLookupQuery, response: Type.Array(Reference), summary: 'Look references up by identifiers', tag: 'references' }),
  route({ operationId: 'getReference', method: 'GET', path: '/references/{reference_id}/', auth: 'R', successStatus: 200, params: ReferencePathParams, response: Reference, summary: 'Get a reference as stored', tag: 'references' }),

  // System (§3.3)
  route({ operationId: 'healthcheck', method: 'GET', path: '/system/healthcheck/', auth: 'none', successStatus: 200, query: HealthcheckQuery, response: StatusOk, summary: 'Health of the service and its dependencies', tag: 'system' }),
  route({ operationId: 'ping', method: 'GET', path: '/system/ping/', auth: 'none', successStatus: 200, response: StatusOk, summary: 'Liveness', tag: 'system' }),
  route({ operationId: 'repairIndex', method: 'POST', path: '/system/indices/{alias}/repair/', auth: 'A', successStatus: 202, params: IndexRepairPathParams, response: IndexRepairResponse, summary: 'Repair a search index', tag: 'system' }),
];

/** Full path of a route including `API_PREFIX`. */
export function routePath(definition: Pick<RouteDefinition, 'path'>): string {
  return `${API_PREFIX}${definition.path}`;
}

/** Express-style path (`:param`) of a route, including `API_PREFIX`. */
export function expressPath(definition: Pick<RouteDefinition, 'path'>): string {
  return routePath(definition).replace(/\{([^}]+)\}/g, ':$1');
}

export function findRoute(operationId: string): RouteDefinition {
  const found = ROUTES.find((candidate) => candidate.operationId === operationId);
  if (found === undefined) throw new Error(`unknown route ${operationId}`);
  return found;
}
