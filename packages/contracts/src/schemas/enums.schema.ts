import { type Static } from '@sinclair/typebox';
import { StringEnum } from './common.schema';

// Every enum of the contract, lower-case snake_case on the wire (D2); DriverVersion is camelCase.

export const VISIBILITY_VALUES = ['public', 'restricted', 'hidden'] as const;
export const Visibility = StringEnum(VISIBILITY_VALUES, { $id: 'Visibility' });
export type Visibility = Static<typeof Visibility>;

export const EXTERNAL_IDENTIFIER_TYPES = ['doi', 'pm_id', 'open_alex', 'eric', 'pro_quest', 'other'] as const;
export const ExternalIdentifierType = StringEnum(EXTERNAL_IDENTIFIER_TYPES, { $id: 'ExternalIdentifierType' });
export type ExternalIdentifierType = Static<typeof ExternalIdentifierType>;

export const ENHANCEMENT_TYPES = [
  'bibliographic',
  'abstract',
  'annotation',
  'location',
  'reference_association',
  'linked_data',
  'raw',
  'full_text',
] as const;
export const EnhancementType = StringEnum(ENHANCEMENT_TYPES, { $id: 'EnhancementType' });
export type EnhancementType = Static<typeof EnhancementType>;

export const DRIVER_VERSIONS = ['publishedVersion', 'acceptedVersion', 'submittedVersion', 'other'] as const;
export const DriverVersion = StringEnum(DRIVER_VERSIONS, { $id: 'DriverVersion' });
export type DriverVersion = Static<typeof DriverVersion>;

export const AUTHOR_POSITIONS = ['first', 'middle', 'last'] as const;
export const AuthorPosition = StringEnum(AUTHOR_POSITIONS, { $id: 'AuthorPosition' });
export type AuthorPosition = Static<typeof AuthorPosition>;

export const ABSTRACT_PROCESS_TYPES = ['uninverted', 'closed_api', 'other'] as const;
export const AbstractProcessType = StringEnum(ABSTRACT_PROCESS_TYPES, { $id: 'AbstractProcessType' });
export type AbstractProcessType = Static<typeof AbstractProcessType>;

export const ANNOTATION_TYPES = ['boolean', 'score'] as const;
export const AnnotationType = StringEnum(ANNOTATION_TYPES, { $id: 'AnnotationType' });
export type AnnotationType = Static<typeof AnnotationType>;

export const REFERENCE_ASSOCIATION_TYPES = ['cites', 'is_cited_by', 'is_similar_to'] as const;
export const ReferenceAssociationType = StringEnum(REFERENCE_ASSOCIATION_TYPES, { $id: 'ReferenceAssociationType' });
export type ReferenceAssociationType = Static<typeof ReferenceAssociationType>;

export const PUBLICATION_VENUE_TYPES = ['journal', 'repository', 'conference', 'ebook_platform', 'book_series', 'other'] as const;
export const PublicationVenueType = StringEnum(PUBLICATION_VENUE_TYPES, { $id: 'PublicationVenueType' });
export type PublicationVenueType = Static<typeof PublicationVenueType>;

export const ROBOT_ENTITLEMENTS = ['full_text', 'raw_enhancement_writer'] as const;
export const RobotEntitlement = StringEnum(ROBOT_ENTITLEMENTS, { $id: 'RobotEntitlement' });
export type RobotEntitlement = Static<typeof RobotEntitlement>;

export const DUPLICATE_DETERMINATIONS = [
  'pending',
  'nominated',
  'duplicate',
  'exact_duplicate',
  'canonical',
  'unresolved',
  'unsearchable',
  'decoupled',
] as const;
export const DuplicateDetermination = StringEnum(DUPLICATE_DETERMINATIONS, { $id: 'DuplicateDetermination' });
export type DuplicateDetermination = Static<typeof DuplicateDetermination>;
/** Determinations that may be the active decision (§6.8). */
export const TERMINAL_DUPLICATE_DETERMINATIONS = ['duplicate', 'exact_duplicate', 'canonical', 'unsearchable'] as const;
export const TerminalDuplicateDetermination = StringEnum(TERMINAL_DUPLICATE_DETERMINATIONS, { $id: 'TerminalDuplicateDetermination' });
export type TerminalDuplicateDetermination = Static<typeof TerminalDuplicateDetermination>;

export const DECISION_AUTHORITIES = ['unclassified', 'person', 'system'] as const;
export const DecisionAuthority = StringEnum(DECISION_AUTHORITIES, { $id: 'DecisionAuthority' });
export type DecisionAuthority = Static<typeof DecisionAuthority>;

export const DECISION_TRIGGERS = ['unclassified', 'manual_api', 'import', 'enhancement', 'invoke_api'] as const;
export const DecisionTrigger = StringEnum(DECISION_TRIGGERS, { $id: 'DecisionTrigger' });
export type DecisionTrigger = Static<typeof DecisionTrigger>;

export const IMPORT_RECORD_STATUSES = ['created', 'started', 'completed'] as const;
export const ImportRecordStatus = StringEnum(IMPORT_RECORD_STATUSES, { $id: 'ImportRecordStatus' });
export type ImportRecordStatus = Static<typeof ImportRecordStatus>;

export const IMPORT_BATCH_STATUSES = ['created', 'started', 'failed', 'partially_failed', 'completed'] as const;
export const ImportBatchStatus = StringEnum(IMPORT_BATCH_STATUSES, { $id: 'ImportBatchStatus' });
export type ImportBatchStatus = Static<typeof ImportBatchStatus>;

export const IMPORT_RESULT_STATUSES = ['created', 'started', 'completed', 'partially_failed', 'failed', 'retrying'] as const;
export const ImportResultStatus = StringEnum(IMPORT_RESULT_STATUSES, { $id: 'ImportResultStatus' });
export type ImportResultStatus = Static<typeof ImportResultStatus>;

export const COLLISION_STRATEGIES = ['discard', 'fail', 'merge_aggressive', 'merge_defensive', 'append', 'overwrite'] as const;
export const CollisionStrategy = StringEnum(COLLISION_STRATEGIES, { $id: 'CollisionStrategy' });
export type CollisionStrategy = Static<typeof CollisionStrategy>;

export const ENHANCEMENT_REQUEST_STATUSES = [
  'received',
  'accepted',
  'processing',
  'rejected',
  'partial_failed',
  'failed',
  'importing',
  'indexing',
  'indexing_failed',
  'completed',
] as const;
export const EnhancementRequestStatus = StringEnum(ENHANCEMENT_REQUEST_STATUSES, { $id: 'EnhancementRequestStatus' });
export type EnhancementRequestStatus = Static<typeof EnhancementRequestStatus>;
/** The SDK's terminal set (§10.3). */
export const TERMINAL_ENHANCEMENT_REQUEST_STATUSES = ['rejected', 'partial_failed', 'failed', 'indexing_failed', 'completed'] as const;

export const SINGLE_ENHANCEMENT_REQUEST_STATUSES = ['received', 'accepted', 'rejected', 'failed', 'completed'] as const;
export const SingleEnhancementRequestStatus = StringEnum(SINGLE_ENHANCEMENT_REQUEST_STATUSES, { $id: 'SingleEnhancementRequestStatus' });
export type SingleEnhancementRequestStatus = Static<typeof SingleEnhancementRequestStatus>;

export const PENDING_ENHANCEMENT_STATUSES = [
  'pending',
  'processing',
  'importing',
  'indexing',
  'completed',
  'indexing_failed',
  'expired',
  'discarded',
  'failed',
] as const;
export const PendingEnhancementStatus = StringEnum(PENDING_ENHANCEMENT_STATUSES, { $id: 'PendingEnhancementStatus' });
export type PendingEnhancementStatus = Static<typeof PendingEnhancementStatus>;
export const TERMINAL_PENDING_ENHANCEMENT_STATUSES = ['expired', 'discarded', 'failed', 'completed', 'indexing_failed'] as const;

/** The only allowed pending-enhancement transitions (§12.1). */
export const PENDING_ENHANCEMENT_TRANSITIONS: Readonly<Record<PendingEnhancementStatus, readonly PendingEnhancementStatus[]>> = {
  pending: ['processing'],
  processing: ['importing', 'expired', 'failed'],
  importing: ['indexing', 'discarded', 'failed'],
  indexing: ['completed', 'indexing_failed'],
  expired: [],
  discarded: [],
  failed: [],
  completed: [],
  indexing_failed: [],
};

export const SEARCH_STATUSES = ['pending', 'searching', 'completed', 'failed'] as const;
export const SearchStatus = StringEnum(SEARCH_STATUSES, { $id: 'SearchStatus' });
export type SearchStatus = Static<typeof SearchStatus>;

export const DUPLICATE_DECISION_OUTCOMES = ['duplicate', 'canonical', 'decoupled'] as const;
export const DuplicateDecisionOutcome = StringEnum(DUPLICATE_DECISION_OUTCOMES, { $id: 'DuplicateDecisionOutcome' });
export type DuplicateDecisionOutcome = Static<typeof DuplicateDecisionOutcome>;

export const WORLD_BANK_REGIONS = ['EAS', 'ECS', 'LCN', 'MEA', 'NAC', 'SAS', 'SSF'] as const;

export const INDEX_ALIASES = ['reference', 'robot-automation-percolation'] as const;
export const IndexAlias = StringEnum(INDEX_ALIASES, { $id: 'IndexAlias' });
export type IndexAlias = Static<typeof IndexAlias>;
