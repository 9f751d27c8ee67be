// Public surface of @destiny/contracts: wire schemas, the shared validator, identifier rules,
// robot HMAC, events, messaging topology, the route table and the OpenAPI generator.

export * from './validation/ajv';
export * from './validation/validate';
export * from './validation/json-structure';
export * from './validation/validation-issue';
export * from './validation/schema-rules';
export * from './validation/uuid';
export * from './validation/iso-duration';
export * from './validation/http-url';
export * from './validation/date-formats';

export * from './schemas/common.schema';
export * from './schemas/enums.schema';
export * from './schemas/identifier.schema';
export * from './schemas/enhancement-content.schema';
export * from './schemas/enhancement.schema';
export * from './schemas/reference.schema';
export * from './schemas/import.schema';
export * from './schemas/robot.schema';
export * from './schemas/enhancement-request.schema';
export * from './schemas/robot-batch.schema';
export * from './schemas/deduplication.schema';
export * from './schemas/percolation.schema';
export * from './schemas/system.schema';

export * from './identifiers/identifier.normaliser';
export * from './identifiers/external-identifier.parser';
export * from './identifiers/identifier-lookup.parser';
export * from './identifiers/identifier-identity';
export * from './enhancements/enhancement.fingerprint';
export * from './jsonl/jsonl-line.serialiser';

export * from './robot-auth/robot-signature';
export * from './robot-auth/robot-auth-headers.parser';

export * from './events/reference-changed.event';
export * from './events/references-indexed.event';
export * from './events/automation-matched.event';
export * from './events/import-batch-job.event';
export * from './events/import-batch-callback-job.event';
export * from './events/robot-result-import-job.event';
export * from './events/search-scan-job.event';
export * from './events/deduplication-job.event';
export * from './events/message-catalog';

export * from './messaging/topology';

export * from './http/permissions';
export * from './http/routes';
export * from './http/route-request.validator';

export * from './openapi/openapi';
export * from './enhancement-requests/request-status';
