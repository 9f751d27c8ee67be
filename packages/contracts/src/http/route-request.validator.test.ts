import { validateRouteRequest } from './route-request.validator';
import { findRoute } from './routes';

const ID = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';

describe('validateRouteRequest', () => {
  it('when the poll has an empty body, then only the query is validated and defaults are filled', () => {
    const result = validateRouteRequest(findRoute('pollRobotEnhancementBatch'), { query: { robot_id: ID.toUpperCase(), limit: '10' }, body: undefined });
    expect(result).toEqual({ ok: true, value: { params: {}, query: { robot_id: ID, limit: 10, lease: 'PT10M' }, body: undefined } });
  });

  it('when path, query and body are all wrong, then the issues come in path, query, body order', () => {
    const result = validateRouteRequest(findRoute('reportSingleRobotResult'), { params: { enhancement_request_id: 'x' }, body: { request_id: ID } });
    expect(!result.ok && result.errors.map((issue) => `${issue.loc.join('.')}:${issue.type}`)).toEqual(['path.enhancement_request_id:uuid_parsing', 'body:value_error']);
  });

  it('when a route needs a body and none was sent, then the body is missing', () => {
    const result = validateRouteRequest(findRoute('registerRobot'), {});
    expect(!result.ok && result.errors).toEqual([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
  });

  it('when the search request is a dry run, then the query flag and the body are both validated', () => {
    const result = validateRouteRequest(findRoute('requestSearchEnhancement'), { query: { dry_run: 'true' }, body: { robot_id: ID, search_query: 'title:climate', source: null } });
    expect(result.ok && result.value).toEqual({
      params: {},
      query: { dry_run: true },
      body: { robot_id: ID, search_query: 'title:climate', source: null, dry_run: false },
    });
  });
});
