import { type TSchema } from '@sinclair/typebox';
import { validate } from '../validation/validate';
import * as enums from './enums.schema';

type EnumSchema = TSchema & { enum: string[] };

const enumSchemas: [string, EnumSchema][] = Object.entries(enums as Record<string, unknown>)
  .filter(([, value]) => typeof value === 'object' && value !== null && Array.isArray((value as { enum?: unknown }).enum))
  .map(([name, value]) => [name, value as EnumSchema]);

describe('contract enums (D2)', () => {
  it('when the enums are listed, then all of them are present', () => {
    expect(enumSchemas.map(([name]) => name).sort()).toEqual(
      [
        'AbstractProcessType',
        'AnnotationType',
        'AuthorPosition',
        'CollisionStrategy',
        'DecisionAuthority',
        'DecisionTrigger',
        'DriverVersion',
        'DuplicateDecisionOutcome',
        'DuplicateDetermination',
        'EnhancementRequestStatus',
        'EnhancementType',
        'ExternalIdentifierType',
        'ImportBatchStatus',
        'ImportRecordStatus',
        'ImportResultStatus',
        'IndexAlias',
        'PendingEnhancementStatus',
        'PublicationVenueType',
        'ReferenceAssociationType',
        'RobotEntitlement',
        'SearchStatus',
        'SingleEnhancementRequestStatus',
        'TerminalDuplicateDetermination',
        'Visibility',
      ].sort(),
    );
  });

  describe.each(enumSchemas)('%s', (_name, schema) => {
    it('when each wire value is given, then it is accepted', () => {
      for (const value of schema.enum) expect(validate(schema, value, 'body').ok).toBe(true);
    });

    it('when a value is given in upper case, then it is rejected with the enum issue', () => {
      const result = validate(schema, schema.enum[0].toUpperCase(), 'body');
      expect(!result.ok && result.errors[0].type).toBe('enum');
    });
  });

  it('when values are snake_case (except DriverVersion), then they are all lower case', () => {
    for (const [name, schema] of enumSchemas) {
      if (name === 'DriverVersion' || name === 'IndexAlias') continue;
      for (const value of schema.enum) expect(value).toMatch(/^[a-z][a-z_]*$/);
    }
    expect(enums.DRIVER_VERSIONS).toEqual(['publishedVersion', 'acceptedVersion', 'submittedVersion', 'other']);
  });

  it('when pending-enhancement transitions are read, then terminal statuses have none', () => {
    for (const status of enums.TERMINAL_PENDING_ENHANCEMENT_STATUSES) expect(enums.PENDING_ENHANCEMENT_TRANSITIONS[status]).toEqual([]);
    expect(enums.PENDING_ENHANCEMENT_TRANSITIONS.processing).toEqual(['importing', 'expired', 'failed']);
  });
});
