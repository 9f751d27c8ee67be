import type { RobotAutomation } from '@destiny/contracts';
import type { ServiceError } from '@destiny/platform';
import { Client } from '@elastic/elasticsearch';
import { PERCOLATION_ALIAS, PERCOLATION_INDEX_MAPPINGS } from '../src/index';
import { startPercolatorHarness, type PercolatorHarness } from './percolator-harness';

const MISSING_ABSTRACT = {
  bool: {
    must: [{ nested: { path: 'changeset.identifiers', query: { term: { 'changeset.identifiers.identifier_type': 'doi' } } } }],
    must_not: [{ nested: { path: 'reference.enhancements', query: { term: { 'reference.enhancements.content.enhancement_type': 'abstract' } } } }],
  },
};

interface MappingNode {
  type?: string;
  properties?: Record<string, MappingNode>;
}

/** Path → type of a mapping (an object without `type` is an object). */
function flatten(properties: Record<string, MappingNode>, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, node] of Object.entries(properties)) {
    const path = `${prefix}${name}`;
    out[path] = node.type ?? 'object';
    if (node.properties) Object.assign(out, flatten(node.properties, `${path}.`));
  }
  return out;
}

function failure(promise: Promise<unknown>): Promise<{ status: number; detail: unknown }> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: ServiceError) => ({ status: error.httpStatus, detail: error.detail }),
  );
}

describe('percolator automations (§13.1)', () => {
  let harness: PercolatorHarness;
  let robot: string;
  let es: Client;

  beforeAll(async () => {
    harness = await startPercolatorHarness('percolator-automations');
    robot = await harness.registerRobot();
    es = new Client({ node: harness.searchUrl });
  });

  afterAll(async () => {
    await es?.close();
    await harness?.stop();
  });

  const create = (body: unknown) => harness.call<RobotAutomation>('CreateAutomation', { json: JSON.stringify(body) });
  const update = (id: string, body: unknown) => harness.call<RobotAutomation>('UpdateAutomation', { automation_id: id, json: JSON.stringify(body) });

  test('when an automation is registered, then it is answered with an id, listed, readable and stored as a percolator query', async () => {
    const created = await create({ robot_id: robot, query: MISSING_ABSTRACT });
    expect(created).toEqual({ robot_id: robot, query: MISSING_ABSTRACT, id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/) });
    expect(await harness.call<RobotAutomation[]>('ListAutomations', {})).toContainEqual(created);
    expect(await harness.call<RobotAutomation>('GetAutomation', { id: created.id })).toEqual(created);
    const stored = await es.get<{ query: unknown; robot_id: string }>({ index: PERCOLATION_ALIAS, id: created.id });
    expect(stored._source).toEqual({ query: MISSING_ABSTRACT, robot_id: robot });
  });

  test('when the percolator index is read back, then its paths and types are exactly those of §13.3', async () => {
    const mappings = await es.indices.getMapping({ index: PERCOLATION_ALIAS });
    const [only] = Object.values(mappings);
    const doc = (p: string) => ({
      [p]: 'object',
      [`${p}.visibility`]: 'keyword',
      [`${p}.duplicate_determination`]: 'keyword',
      [`${p}.identifiers`]: 'nested',
      [`${p}.identifiers.reference_id`]: 'keyword',
      [`${p}.identifiers.identifier`]: 'keyword',
      [`${p}.identifiers.identifier_type`]: 'keyword',
      [`${p}.identifiers.other_identifier_name`]: 'keyword',
      [`${p}.enhancements`]: 'nested',
      [`${p}.enhancements.id`]: 'keyword',
      [`${p}.enhancements.reference_id`]: 'keyword',
      [`${p}.enhancements.visibility`]: 'keyword',
      [`${p}.enhancements.source`]: 'keyword',
      [`${p}.enhancements.robot_version`]: 'keyword',
      [`${p}.enhancements.created_at`]: 'date',
      [`${p}.enhancements.content`]: 'object',
      [`${p}.enhancements.content.enhancement_type`]: 'keyword',
      [`${p}.enhancements.content.annotations`]: 'nested',
      [`${p}.enhancements.content.annotations.scheme`]: 'keyword',
      [`${p}.enhancements.content.annotations.label`]: 'keyword',
      [`${p}.enhancements.content.annotations.annotation_type`]: 'keyword',
      [`${p}.enhancements.content.annotations.value`]: 'boolean',
    });
    expect(flatten(only.mappings.properties as Record<string, MappingNode>)).toEqual({ query: 'percolator', robot_id: 'keyword', ...doc('reference'), ...doc('changeset') });
    expect(flatten(PERCOLATION_INDEX_MAPPINGS.properties as Record<string, MappingNode>)).toEqual(flatten(only.mappings.properties as Record<string, MappingNode>));
  });

  test('when the query has a top-level `query` wrapper, then it is refused with 400 Malformed Elasticsearch document', async () => {
    const refused = await failure(create({ robot_id: robot, query: { query: { match_all: {} } } }));
    expect(refused.status).toBe(400);
    expect(refused.detail).toMatch(/^Malformed Elasticsearch document: .*robot_id=.*\. Error: .*unknown query \[query\].*\.$/);
  });

  test('when the query names an unmapped path, then it is refused with 400 naming the field', async () => {
    const refused = await failure(create({ robot_id: robot, query: { nested: { path: 'changeset.enhancements', query: { term: { 'changeset.enhancements.content.abstract': 'x' } } } } }));
    expect(refused.status).toBe(400);
    expect(refused.detail).toMatch(/^Malformed Elasticsearch document: .* Error: .*No field mapping can be found for the field with name \[changeset\.enhancements\.content\.abstract\]/);
    const alsoRefused = await failure(create({ robot_id: robot, query: { term: { 'reference.title': 'x' } } }));
    expect(alsoRefused).toEqual({ status: 400, detail: expect.stringContaining('No field mapping can be found for the field with name [reference.title]') });
  });

  test('when the query uses an unknown query type, then it is refused with 400', async () => {
    const refused = await failure(create({ robot_id: robot, query: { fancy_match: { 'changeset.visibility': 'public' } } }));
    expect(refused.status).toBe(400);
    expect(refused.detail).toMatch(/^Malformed Elasticsearch document: .* Error: .*unknown query \[fancy_match\]/);
  });

  test('when the robot does not exist, then 422 names it, on create and on update', async () => {
    const ghost = '0190f2d4-7c2a-7b7e-9a39-3f2b8e3d9c11';
    expect(await failure(create({ robot_id: ghost, query: { match_all: {} } }))).toEqual({ status: 422, detail: `Robot with id ${ghost} does not exist.` });
    const created = await create({ robot_id: robot, query: { term: { 'changeset.visibility': 'hidden' } } });
    expect(await failure(update(created.id, { robot_id: ghost, query: { match_all: {} } }))).toEqual({ status: 422, detail: `Robot with id ${ghost} does not exist.` });
  });

  test('when the same (robot, query) is registered twice, even with keys in another order, then the second is a 409', async () => {
    const query = { bool: { must: [{ term: { 'changeset.visibility': 'restricted' } }], must_not: [{ term: { 'changeset.duplicate_determination': 'duplicate' } }] } };
    await create({ robot_id: robot, query });
    const reordered = { bool: { must_not: query.bool.must_not, must: query.bool.must } };
    const conflict = await failure(create({ robot_id: robot, query: reordered }));
    expect(conflict.status).toBe(409);
    expect(conflict.detail).toMatch(/^Unable to perform operation on RobotAutomation\. Violation: Key \(robot_id, query\)=\(.+\) already exists\.$/);
    const otherRobot = await harness.registerRobot();
    expect((await create({ robot_id: otherRobot, query })).robot_id).toBe(otherRobot);
  });

  test('when an automation is updated, then its new query replaces the old one in the index; an unknown id is a 404 and a duplicate a 409', async () => {
    const first = await create({ robot_id: robot, query: { term: { 'changeset.duplicate_determination': 'canonical' } } });
    const second = await create({ robot_id: robot, query: { term: { 'changeset.duplicate_determination': 'unsearchable' } } });
    const replaced = await update(first.id, { robot_id: robot, query: { term: { 'changeset.identifiers.identifier_type': 'pm_id' } } });
    expect(replaced).toEqual({ id: first.id, robot_id: robot, query: { term: { 'changeset.identifiers.identifier_type': 'pm_id' } } });
    expect((await es.get<{ query: unknown }>({ index: PERCOLATION_ALIAS, id: first.id }))._source?.query).toEqual(replaced.query);
    expect((await failure(update(second.id, { robot_id: robot, query: replaced.query }))).status).toBe(409);
    const unknown = '0190f2d4-7c2a-7b7e-9a39-3f2b8e3d9c12';
    expect(await failure(update(unknown, { robot_id: robot, query: { match_all: {} } }))).toEqual({ status: 404, detail: `RobotAutomation with id ${unknown} does not exist.` });
    // A refused query leaves the automation as it was.
    expect((await failure(update(first.id, { robot_id: robot, query: { term: { 'changeset.nothing': 'x' } } }))).status).toBe(400);
    expect(await harness.call<RobotAutomation>('GetAutomation', { id: first.id })).toEqual(replaced);
    expect((await es.get<{ query: unknown }>({ index: PERCOLATION_ALIAS, id: first.id }))._source?.query).toEqual(replaced.query);
  });

  test('when the percolator index drifts or is lost, then a restart rebuilds it from the automations collection', async () => {
    const before = await harness.call<RobotAutomation[]>('ListAutomations', {});
    const expectIndexMatches = async () => {
      expect((await es.count({ index: PERCOLATION_ALIAS })).count).toBe(before.length);
      for (const automation of before) expect((await es.get<{ query: unknown; robot_id: string }>({ index: PERCOLATION_ALIAS, id: automation.id }))._source).toEqual({ query: automation.query, robot_id: automation.robot_id });
    };
    // An entry without a record (a registration that died half-way) and a record without an entry.
    await es.index({ index: PERCOLATION_ALIAS, id: 'orphan', document: { query: { match_all: {} }, robot_id: robot }, refresh: true });
    await es.delete({ index: PERCOLATION_ALIAS, id: before[0].id, refresh: true });
    await harness.restartPercolator();
    await expectIndexMatches();
    expect(await es.exists({ index: PERCOLATION_ALIAS, id: 'orphan' })).toBe(false);
    await es.indices.delete({ index: Object.keys(await es.indices.getAlias({ name: PERCOLATION_ALIAS })) });
    await harness.restartPercolator();
    await expectIndexMatches();
  });

  test('when Elasticsearch is unreachable, then registration answers 503 and nothing is recorded', async () => {
    const before = await harness.call<RobotAutomation[]>('ListAutomations', {});
    await harness.stopSearch();
    expect(await failure(create({ robot_id: robot, query: { term: { 'changeset.visibility': 'public' } } }))).toEqual({ status: 503, detail: 'The percolator index is unavailable.' });
    expect(await harness.call<RobotAutomation[]>('ListAutomations', {})).toEqual(before);
  });
});
