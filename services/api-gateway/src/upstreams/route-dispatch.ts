import { lookupIdentifiersFromQuery, parseIdentifierLookup, ROUTES, type ValidatedRouteRequest } from '@destiny/contracts';
import { createFullTextLinks, ServiceError, type FullTextLinks } from '@destiny/platform';
import { redactFullText, redactFullTextAll } from '../domain/full-text-redaction';
import type { Caller } from '../auth/request.authenticator';
import { NOT_IMPLEMENTED_DETAIL, type Upstreams } from './upstream-clients';

/**
 * What a route answers: JSON, bare text, no body, or a JSON array written element by element
 * (each item one element's JSON text) for a list too large to hold as one value; `around` puts the
 * array inside an object's text (its last key's value).
 */
export type RouteResult =
  | { status: number; json: unknown }
  | { status: number; text: string }
  | { status: number; empty: true }
  | { status: number; jsonArray: AsyncIterable<string>; around?: { before: string; after: string } };

export interface RouteCall extends ValidatedRouteRequest {
  caller: Caller;
  /** The route's `successStatus`. */
  status: number;
}

export type RouteHandler = (call: RouteCall) => Promise<RouteResult>;

interface JsonDocument {
  json: string;
}
interface JsonDocuments {
  json: string[];
}

const parseDocument = (document: JsonDocument): unknown => JSON.parse(document.json);
const parseDocuments = (documents: JsonDocuments): unknown[] => (documents.json ?? []).map((json) => JSON.parse(json));
const json = (status: number, body: unknown): RouteResult => ({ status, json: body });
const notImplemented = (): Promise<RouteResult> => Promise.reject(new ServiceError(501, NOT_IMPLEMENTED_DETAIL));

function param(call: RouteCall, name: string): string {
  return String(call.params[name]);
}

function bodyText(call: RouteCall): string {
  return JSON.stringify(call.body);
}

/** A route whose rpc answers one JsonDocument with the route's success status. */
function single(call: () => Promise<JsonDocument>, status: number): Promise<RouteResult> {
  return call().then((document) => json(status, parseDocument(document)));
}

function many(call: () => Promise<JsonDocuments>, status: number): Promise<RouteResult> {
  return call().then((documents) => json(status, parseDocuments(documents)));
}

interface ImportRecordsPage {
  json: string[];
  more: boolean;
  last_id: string;
}

interface ImportResultsPage {
  json: string[];
  more: boolean;
  last_line: number;
}

/**
 * A list read page by page from import-service and written out as it comes: records' texts have no
 * size limit and a batch may hold hundreds of thousands of results, so the list can outgrow a gRPC
 * message and a string. The first page is read before answering, so its failure is an ordinary
 * error response; `next` reads the page after a page, or says there is none.
 */
async function pagedList<Page extends { json: string[] }>(
  first: Promise<Page>,
  next: (page: Page) => Promise<Page> | undefined,
  status: number,
  elementsOf: (page: Page) => Promise<string[]> = async (page) => page.json,
): Promise<RouteResult> {
  const firstPage = await first;
  const firstElements = await elementsOf(firstPage);
  async function* elements(): AsyncIterable<string> {
    yield* firstElements;
    for (let page = await next(firstPage); page !== undefined; page = await next(page)) yield* await elementsOf(page);
  }
  return { status, jsonArray: elements() };
}

/** The import record list, newest first, up to `limit` records. */
function importRecordPages(read: (limit: number, beforeId: string) => Promise<ImportRecordsPage>, limit: number, status: number): Promise<RouteResult> {
  let remaining = limit;
  return pagedList(
    read(limit, ''),
    (page) => {
      remaining -= page.json.length;
      return page.more && remaining > 0 && page.json.length > 0 ? read(remaining, page.last_id) : undefined;
    },
    status,
  );
}

/** A batch's results in line order. */
function importResultPages(read: (afterLine: number) => Promise<ImportResultsPage>, status: number): Promise<RouteResult> {
  return pagedList(read(0), (page) => (page.more && page.json.length > 0 ? read(Number(page.last_line)) : undefined), status);
}

/** Renew-lease answers the expiry as bare text; the rpc carries it as a JSON string. */
function leaseText(document: JsonDocument): string {
  const value = parseDocument(document);
  if (typeof value !== 'string') throw new Error('RenewRobotEnhancementBatchLease answered something other than a JSON string');
  return value;
}

interface ImportBatchSummaryPage {
  json: string;
  more: boolean;
  last_line: number;
}

interface ImportFailureDetailsPage {
  failure_details: string[];
  more: boolean;
  last_line: number;
}

/**
 * The batch summary; when its failure details did not fit in one reply, they are read page by page
 * after it and written out as they come, as the summary's last key.
 */
async function importBatchSummary(
  first: Promise<ImportBatchSummaryPage>,
  read: (afterLine: number) => Promise<ImportFailureDetailsPage>,
  status: number,
): Promise<RouteResult> {
  const page = await first;
  const summary = JSON.parse(page.json) as { failure_details: string[] };
  if (!page.more) return json(status, summary);
  const { failure_details: firstDetails, ...rest } = summary;
  async function* elements(): AsyncIterable<string> {
    for (const detail of firstDetails) yield JSON.stringify(detail);
    let more: ImportFailureDetailsPage = { failure_details: [], more: page.more, last_line: page.last_line };
    while (more.more) {
      more = await read(Number(more.last_line));
      for (const detail of more.failure_details) yield JSON.stringify(detail);
      if (more.failure_details.length === 0) return;
    }
  }
  return { status, jsonArray: elements(), around: { before: `${JSON.stringify(rest).slice(0, -1)},"failure_details":`, after: '}' } };
}

interface LookupReferencesPage {
  json: string[];
  remaining_ids: string[];
}

/** §7.2: split and count the identifiers (422), then check each against the §6.4 grammar (400). */
function lookupIdentifiers(query: Record<string, unknown>): string[] {
  const split = lookupIdentifiersFromQuery(query.identifier as string[]);
  if (!split.ok) throw ServiceError.unprocessable([split.issue]);
  for (const text of split.identifiers) {
    const parsed = parseIdentifierLookup(text);
    if (!parsed.ok) throw ServiceError.badRequest(parsed.message);
  }
  return split.identifiers;
}

/** Every route of the contract mapped to its upstream call (operationId → handler). */
/** Lifetime of full-text download URLs in responses (§16 presigned_url_expiry_seconds). */
export const FULL_TEXT_URL_SECONDS = 3600;

/** `fullTextLinks` signs stored full texts; by default there is no blob store, so they are left out. */
export function routeHandlers(upstreams: Upstreams, fullTextLinks: FullTextLinks = createFullTextLinks(null, FULL_TEXT_URL_SECONDS)): Record<string, RouteHandler> {
  const imports = upstreams['import-service'];
  const dedup = upstreams['dedup-service'];
  const robots = upstreams['robot-broker'];
  const search = upstreams['search-request-service'];
  const percolator = upstreams.percolator;
  const callerJson = (call: RouteCall, id = '') => ({ caller: call.caller, id, json: bodyText(call) });

  return {
    // Robots (§9)
    listRobots: (call) => many(() => robots.call('ListRobots', {}), call.status),
    registerRobot: (call) => single(() => robots.call('RegisterRobot', callerJson(call)), call.status),
    getRobot: (call) => single(() => robots.call('GetRobot', { id: param(call, 'robot_id') }), call.status),
    updateRobot: (call) => single(() => robots.call('UpdateRobot', callerJson(call, param(call, 'robot_id'))), call.status),
    cycleRobotSecret: (call) => single(() => robots.call('CycleRobotSecret', { id: param(call, 'robot_id') }), call.status),

    // Enhancement requests (§10, §11, §13, §14)
    requestSearchEnhancement: async (call) => {
      const body = call.body as { robot_id: string; search_query: string; dry_run?: boolean };
      if (call.query.dry_run === true || body.dry_run === true) {
        // The robot is checked first, even for dry runs (contract 11.1).
        return single(() => search.call('CountReferences', { search_query: body.search_query, robot_id: body.robot_id }), 200);
      }
      return single(() => search.call('CreateSearchEnhancementRequest', { json: bodyText(call) }), call.status);
    },
    getSearchEnhancementRequest: (call) => single(() => search.call('GetSearchEnhancementRequest', { id: param(call, 'enhancement_request_id') }), call.status),
    listAutomations: (call) => many(() => percolator.call('ListAutomations', {}), call.status),
    createAutomation: (call) => single(() => percolator.call('CreateAutomation', { json: bodyText(call) }), call.status),
    updateAutomation: (call) => single(() => percolator.call('UpdateAutomation', { automation_id: param(call, 'automation_id'), json: bodyText(call) }), call.status),
    requestSingleEnhancement: (call) => single(() => robots.call('CreateSingleEnhancementRequest', callerJson(call)), call.status),
    getSingleEnhancementRequest: (call) => single(() => robots.call('GetSingleEnhancementRequest', { id: param(call, 'enhancement_request_id') }), call.status),
    reportSingleRobotResult: (call) => singleRobotResult(call),
    reportSingleRobotResultLegacyPath: (call) => singleRobotResult(call),
    createEnhancementRequest: (call) => single(() => robots.call('CreateEnhancementRequest', callerJson(call)), call.status),
    getEnhancementRequest: (call) => single(() => robots.call('GetEnhancementRequest', { id: param(call, 'enhancement_request_id') }), call.status),

    // Robot enhancement batches (§12)
    pollRobotEnhancementBatch: async (call) => {
      const document = await robots.call<JsonDocument>('PollRobotEnhancementBatch', {
        caller: call.caller,
        robot_id: String(call.query.robot_id),
        limit: Number(call.query.limit),
        lease: String(call.query.lease),
      });
      // An empty document is "no work": 204 without a body.
      if (document.json === '' || document.json === 'null') return { status: 204, empty: true };
      return json(call.status, parseDocument(document));
    },
    getRobotEnhancementBatch: (call) => single(() => robots.call('GetRobotEnhancementBatch', { id: param(call, 'robot_enhancement_batch_id') }), call.status),
    submitRobotEnhancementBatchResult: (call) => {
      const hasError = (call.body as { error?: unknown }).error != null;
      return single(() => robots.call('SubmitRobotEnhancementBatchResult', callerJson(call, param(call, 'robot_enhancement_batch_id'))), hasError ? 200 : call.status);
    },
    renewRobotEnhancementBatchLease: async (call) => {
      const document = await robots.call<JsonDocument>('RenewRobotEnhancementBatchLease', {
        robot_enhancement_batch_id: param(call, 'robot_enhancement_batch_id'),
        lease: String(call.query.lease),
      });
      return { status: call.status, text: leaseText(document) };
    },

    // Imports (§8)
    listImportRecords: (call) =>
      importRecordPages((limit, beforeId) => imports.call<ImportRecordsPage>('ListImportRecords', { limit, before_id: beforeId }), Number(call.query.limit), call.status),
    createImportRecord: (call) => single(() => imports.call('CreateImportRecord', { json: bodyText(call) }), call.status),
    getImportRecord: (call) => single(() => imports.call('GetImportRecord', { id: param(call, 'import_record_id') }), call.status),
    listImportBatches: (call) => many(() => imports.call('ListImportBatches', { id: param(call, 'import_record_id') }), call.status),
    registerImportBatch: (call) =>
      single(() => imports.call('RegisterImportBatch', { import_record_id: param(call, 'import_record_id'), batch_json: bodyText(call) }), call.status),
    getImportBatch: (call) => single(() => imports.call('GetImportBatch', importBatchRequest(call)), call.status),
    getImportBatchSummary: (call) =>
      importBatchSummary(
        imports.call<ImportBatchSummaryPage>('GetImportBatchSummary', importBatchRequest(call)),
        (afterLine) => imports.call<ImportFailureDetailsPage>('ListImportFailureDetails', { ...importBatchRequest(call), after_line: afterLine }),
        call.status,
      ),
    listImportResults: (call) => {
      const resultStatus = typeof call.query.result_status === 'string' ? call.query.result_status : '';
      return importResultPages((afterLine) => imports.call<ImportResultsPage>('ListImportResults', { ...importBatchRequest(call), result_status: resultStatus, after_line: afterLine }), call.status);
    },
    finaliseImportRecord: (call) => finalise(call),
    finaliseImportRecordPatch: (call) => finalise(call),

    // References (§7, §15)
    searchReferences: async (call) => {
      const result = parseDocument(await search.call<JsonDocument>('SearchReferences', { json: JSON.stringify(call.query) })) as { references?: unknown[] };
      const references = Array.isArray(result.references) ? await fullTextLinks.presentAll(redactFullTextAll(result.references, call.caller.entitlements)) : result.references;
      return json(call.status, { ...result, references });
    },
    searchReferenceIds: (call) => single(() => search.call('SearchReferenceIds', { json: JSON.stringify(call.query) }), call.status),
    searchReferenceFacets: notImplemented,
    searchReferenceCrossFacets: notImplemented,
    createSearchExport: notImplemented,
    getSearchExport: notImplemented,
    createReferenceExport: notImplemented,
    getReferenceExport: notImplemented,
    makeDuplicateDecisions: (call) => many(() => dedup.call('MakeDuplicateDecisions', { json: bodyText(call) }), call.status),
    invokeDeduplication: async (call) => {
      await dedup.call('InvokeDeduplication', { ids: (call.body as { reference_ids: string[] }).reference_ids });
      return json(call.status, null);
    },
    // 501 while dedup_service.proto has no such rpc (the client then lacks the method).
    evaluateDeduplicationCandidates: (call) => many(() => dedup.call('EvaluateDeduplicationCandidates', { json: bodyText(call) }), call.status),
    lookupReferences: async (call) => {
      // Page by page: the views that did not fit in a reply are looked up again by id; a reference
      // that became a duplicate meanwhile resolves to a canonical already answered, and is skipped.
      const read = (identifiers: string[]) => dedup.call<LookupReferencesPage>('LookupReferences', { identifiers });
      const answered = new Set<string>();
      const present = async (page: LookupReferencesPage): Promise<string[]> => {
        const references = parseDocuments(page).filter((reference) => {
          const id = (reference as { id: string }).id;
          return !answered.has(id) && answered.add(id);
        });
        return (await fullTextLinks.presentAll(redactFullTextAll(references, call.caller.entitlements))).map((reference) => JSON.stringify(reference));
      };
      const next = (page: LookupReferencesPage) => (page.json.length > 0 && page.remaining_ids.length > 0 ? read(page.remaining_ids) : undefined);
      return pagedList(read(lookupIdentifiers(call.query)), next, call.status, present);
    },
    getReference: async (call) => {
      const reference = parseDocument(await dedup.call<JsonDocument>('GetReference', { id: param(call, 'reference_id') }));
      return json(call.status, await fullTextLinks.present(redactFullText(reference, call.caller.entitlements)));
    },

    // System (§3.3): healthcheck and ping are served by the healthcheck router.
    repairIndex: async (call) => {
      if (call.params.alias !== 'reference') return notImplemented();
      const rebuilt = await search.call<{ index_name: string; indexed: string | number }>('RebuildIndex', {});
      return json(call.status, { status: 'ok', message: `Rebuilt index ${rebuilt.index_name} with ${rebuilt.indexed} references.` });
    },
  };

  function singleRobotResult(call: RouteCall): Promise<RouteResult> {
    const hasError = (call.body as { error?: unknown }).error != null;
    return single(() => robots.call('SubmitSingleRobotResult', callerJson(call, param(call, 'enhancement_request_id'))), hasError ? 200 : call.status);
  }

  function importBatchRequest(call: RouteCall): { import_record_id: string; import_batch_id: string } {
    return { import_record_id: param(call, 'import_record_id'), import_batch_id: param(call, 'import_batch_id') };
  }

  async function finalise(call: RouteCall): Promise<RouteResult> {
    await imports.call('FinaliseImportRecord', { id: param(call, 'import_record_id') });
    return { status: call.status, empty: true };
  }
}

/** Routes the healthcheck router serves itself. */
export const SELF_SERVED_ROUTES: ReadonlySet<string> = new Set(['healthcheck', 'ping']);

/** Operation ids of ROUTES that have no handler (a test keeps this empty). */
export function unroutedOperations(handlers: Record<string, RouteHandler>): string[] {
  return ROUTES.filter((route) => !SELF_SERVED_ROUTES.has(route.operationId) && handlers[route.operationId] === undefined).map((route) => route.operationId);
}
