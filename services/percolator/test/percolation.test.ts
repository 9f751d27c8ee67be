import { uuidv7, type RobotAutomation } from '@destiny/contracts';
import { abstractOf, decided, deduplicated, doi, enhanced, inclusionOf, reference, startPercolatorHarness, titled, type PercolatorHarness } from './percolator-harness';

// The spec's two example queries in contract form (§13.3, lowercase values).
const MISSING_ABSTRACT = {
  bool: {
    must: [{ nested: { path: 'changeset.identifiers', query: { term: { 'changeset.identifiers.identifier_type': 'doi' } } } }],
    must_not: [{ nested: { path: 'reference.enhancements', query: { term: { 'reference.enhancements.content.enhancement_type': 'abstract' } } } }],
  },
};
const RECEIVED_ABSTRACT = { nested: { path: 'changeset.enhancements', query: { term: { 'changeset.enhancements.content.enhancement_type': 'abstract' } } } };
const INCLUDED = {
  nested: {
    path: 'changeset.enhancements.content.annotations',
    query: { bool: { must: [{ term: { 'changeset.enhancements.content.annotations.scheme': 'inclusion:destiny' } }, { term: { 'changeset.enhancements.content.annotations.value': true } }] } },
  },
};
const DUPLICATE_ARRIVED = { term: { 'changeset.duplicate_determination': 'duplicate' } };

describe('percolation of reference.changed (§13.2, §13.4)', () => {
  let harness: PercolatorHarness;
  /** Robots: A enriches references missing an abstract, B reacts to abstracts, C to inclusions, D to new duplicates. */
  let robotA: string;
  let robotB: string;
  let robotC: string;
  let robotD: string;

  beforeAll(async () => {
    harness = await startPercolatorHarness('percolator-percolation');
    [robotA, robotB, robotC, robotD] = await Promise.all([harness.registerRobot(), harness.registerRobot(), harness.registerRobot(), harness.registerRobot()]);
    const register = (robot_id: string, query: unknown) => harness.call<RobotAutomation>('CreateAutomation', { json: JSON.stringify({ robot_id, query }) });
    await register(robotA, MISSING_ABSTRACT);
    await register(robotB, RECEIVED_ABSTRACT);
    await register(robotC, INCLUDED);
    await register(robotD, DUPLICATE_ARRIVED);
    // A second automation of robot C that also matches inclusions: matches merge per robot.
    await register(robotC, { nested: { path: 'changeset.enhancements', query: { term: { 'changeset.enhancements.content.enhancement_type': 'annotation' } } } });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const pendingFor = (referenceId: string) => harness.pending({ reference_id: referenceId });
  const robotsOf = async (referenceId: string) => (await pendingFor(referenceId)).map((row) => row.robot_id).sort();

  test('when a canonical reference with a DOI and no abstract is decided, then the missing-abstract automation fires for it with the decision as source', async () => {
    const canonical = reference([doi('10.1234/canonical-import')], (id) => [titled(id, 'A study')]);
    const event = decided(canonical, 'canonical');
    const [outcome] = await harness.percolate([event]);
    expect(outcome.percolated).toBeGreaterThanOrEqual(1);
    const rows = await pendingFor(canonical.id);
    expect(rows).toEqual([expect.objectContaining({ robot_id: robotA, reference_id: canonical.id, enhancement_request_id: null, status: 'pending', source: `DuplicateDecision:${event.duplicate_decision_id}` })]);
  });

  test('when a decided reference already has an abstract, then the missing-abstract automation does not fire, and the received-abstract one does (its changeset is the whole reference)', async () => {
    const withAbstract = reference([doi('10.1234/has-abstract')], (id) => [abstractOf(id)]);
    await harness.percolate([decided(withAbstract, 'canonical')]);
    expect(await robotsOf(withAbstract.id)).toEqual([robotB]);
  });

  test('when a reference without a DOI is decided, then the missing-abstract automation does not fire (the changeset must hold a doi)', async () => {
    const noDoi = reference([{ identifier: 12345, identifier_type: 'pm_id' }]);
    await harness.percolate([decided(noDoi, 'unsearchable')]);
    expect(await pendingFor(noDoi.id)).toEqual([]);
  });

  test('when a reference becomes a duplicate, then automations fire for its canonical, whose view folds the duplicate in', async () => {
    const canonical = reference([doi('10.1234/canon')], (id) => [abstractOf(id)]);
    const duplicate = reference([doi('10.1234/canon'), { identifier: 777, identifier_type: 'pm_id' }]);
    const { ofDuplicate, ofCanonical } = deduplicated(canonical, duplicate);
    await harness.percolate([ofDuplicate, ofCanonical]);
    // D listens for duplicates arriving; A does not fire: the canonical's view holds an abstract.
    expect(await pendingFor(canonical.id)).toEqual([expect.objectContaining({ robot_id: robotD, source: `DuplicateDecision:${ofCanonical.duplicate_decision_id}` })]);
    expect(await pendingFor(duplicate.id)).toEqual([]);
  });

  test('when a duplicate without abstract joins a canonical without abstract, then the missing-abstract automation fires for the canonical only', async () => {
    const canonical = reference([doi('10.1234/canon-2')]);
    const duplicate = reference([doi('10.1234/canon-2-preprint')]);
    const { ofDuplicate, ofCanonical } = deduplicated(canonical, duplicate);
    await harness.percolate([ofDuplicate, ofCanonical]);
    expect(await robotsOf(canonical.id)).toEqual([robotA, robotD].sort());
    expect(await pendingFor(duplicate.id)).toEqual([]);
  });

  test('when robot A stores an abstract on a canonical, then the received-abstract automation fires for robot B with the batch as source (a cross-robot chain)', async () => {
    const target = reference([doi('10.1234/enhanced')]);
    const batch = uuidv7();
    await harness.percolate([enhanced(target, [abstractOf(target.id, 'Found it.', 'robot-a')], { robot_id: robotA, robot_enhancement_batch_id: batch })]);
    const rows = await pendingFor(target.id);
    expect(rows).toEqual([expect.objectContaining({ robot_id: robotB, source: `RobotEnhancementBatch:${batch}`, status: 'pending' })]);
  });

  test('when robot B stores an abstract itself, then the cycle check keeps B from being triggered by its own enhancement', async () => {
    const target = reference([doi('10.1234/self')]);
    const [outcome] = await harness.percolate([enhanced(target, [abstractOf(target.id, 'Mine.', 'robot-b')], { robot_id: robotB, robot_enhancement_batch_id: uuidv7() })]);
    expect(outcome.skippedByCycleCheck).toBeGreaterThanOrEqual(1);
    expect(await pendingFor(target.id)).toEqual([]);
  });

  test('when an enhancement is added to a duplicate, then automations fire for the duplicate, not its canonical', async () => {
    const canonical = reference([doi('10.1234/dup-canon')]);
    const duplicate = reference([doi('10.1234/dup-member')]);
    const batch = uuidv7();
    await harness.percolate([enhanced(duplicate, [inclusionOf(duplicate.id, true)], { robot_id: robotB, robot_enhancement_batch_id: batch }, 'duplicate', [], canonical.id)]);
    const rows = await pendingFor(duplicate.id);
    // Robot C has two matching automations; they merge into one pending enhancement.
    expect(rows).toEqual([expect.objectContaining({ robot_id: robotC, source: `RobotEnhancementBatch:${batch}` })]);
    expect(await pendingFor(canonical.id)).toEqual([]);
  });

  test('when an inclusion annotation is false, then the received-inclusion example query does not fire (nested clauses hold for the same annotation)', async () => {
    const target = reference([doi('10.1234/excluded')]);
    await harness.percolate([enhanced(target, [inclusionOf(target.id, false)], { robot_id: robotB, robot_enhancement_batch_id: uuidv7() })]);
    // Only C's enhancement-type automation matches; it is the same robot, merged.
    expect(await robotsOf(target.id)).toEqual([robotC]);
    const otherTarget = reference([doi('10.1234/excluded-2')]);
    const robotE = await harness.registerRobot();
    await harness.call('CreateAutomation', { json: JSON.stringify({ robot_id: robotE, query: INCLUDED }) });
    await harness.percolate([enhanced(otherTarget, [inclusionOf(otherTarget.id, false)], { robot_id: robotB, robot_enhancement_batch_id: uuidv7() })]);
    expect(await robotsOf(otherTarget.id)).toEqual([robotC]);
  });

  test('when an enhancement event is percolated, then identifiers and determination of the changeset are absent (a doi-constrained query does not fire)', async () => {
    const target = reference([doi('10.1234/no-identifiers-in-changeset')]);
    await harness.percolate([enhanced(target, [titled(target.id, 'Bibliography only')], { robot_id: robotB, robot_enhancement_batch_id: uuidv7() })]);
    expect(await pendingFor(target.id)).toEqual([]);
  });

  test('when exact duplicates, imports before their first decision and duplicates\' own events arrive, then nothing is percolated', async () => {
    const exact = reference([doi('10.1234/exact')]);
    const duplicateOwn = deduplicated(reference([doi('10.1234/x-canon')]), reference([doi('10.1234/x-dup')])).ofDuplicate;
    const imported = { ...decided(reference([doi('10.1234/imported')]), 'canonical'), kind: 'imported' as const, duplicate_decision: null };
    imported.reference = { ...imported.reference, duplicate_decision: null };
    const outcomes = await harness.percolate([decided(exact, 'exact_duplicate'), duplicateOwn, imported]);
    expect(outcomes.every((outcome) => outcome !== undefined)).toBe(true);
    expect(await pendingFor(exact.id)).toEqual([]);
    expect(await pendingFor(duplicateOwn.reference_id)).toEqual([]);
    expect(await pendingFor(imported.reference_id)).toEqual([]);
  });

  test('when an event is delivered again, then no second pending enhancement is created', async () => {
    const target = reference([doi('10.1234/redelivered')]);
    const event = decided(target, 'canonical');
    const [first] = await harness.percolate([event]);
    expect(first.created).toBeGreaterThanOrEqual(1);
    const [second] = await harness.percolate([event]);
    expect(second.dispatched).toBeGreaterThanOrEqual(1);
    const rows = await pendingFor(target.id);
    expect(rows).toEqual([expect.objectContaining({ robot_id: robotA, source: `DuplicateDecision:${event.duplicate_decision_id}` })]);
  });

  test('when several events of one batch match several robots, then robot-broker is called once for the whole batch', async () => {
    const targets = Array.from({ length: 5 }, (_, index) => reference([doi(`10.1234/one-call-${index}`)]));
    const batch = uuidv7();
    const events = [
      ...targets.map((target) => decided(target, 'canonical')),
      ...targets.map((target) => enhanced(target, [abstractOf(target.id, 'Found.', 'robot-a')], { robot_id: robotA, robot_enhancement_batch_id: batch })),
    ];
    const batches = [...new Set(await harness.percolate(events))];
    expect(batches.map((outcome) => outcome.calls)).toEqual(batches.map(() => 1));
    expect(batches.reduce((sum, outcome) => sum + outcome.created, 0)).toBe(10);
    for (const target of targets) expect(await robotsOf(target.id)).toEqual([robotA, robotB].sort());
  });

  test('when many events arrive together, then they are percolated in shared batches and each reference gets its robots', async () => {
    const targets = Array.from({ length: 60 }, (_, index) => reference([doi(`10.1234/bulk-${index}`)]));
    const outcomes = await harness.percolate(targets.map((target) => decided(target, 'canonical')));
    expect(Math.max(...outcomes.map((outcome) => outcome.percolated))).toBeGreaterThan(1);
    for (const target of targets) expect(await robotsOf(target.id)).toEqual([robotA]);
  });
});
