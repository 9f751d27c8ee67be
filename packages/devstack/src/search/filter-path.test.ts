import { applyFilterPath } from './filter-path';

const body = { took: 3, errors: false, items: [{ index: { _id: '1', status: 201, result: 'created' } }, { index: { _id: '2', status: 409, error: { type: 'x' } } }] };

describe('filter_path', () => {
  test('when top-level keys are listed, then only they remain', () => {
    expect(applyFilterPath(body, 'took,errors')).toEqual({ took: 3, errors: false });
  });

  test('when a path goes through arrays and wildcards, then matching leaves remain', () => {
    expect(applyFilterPath(body, 'items.*.error')).toEqual({ items: [{ index: { error: { type: 'x' } } }] });
    expect(applyFilterPath(body, 'items.**._id')).toEqual({ items: [{ index: { _id: '1' } }, { index: { _id: '2' } }] });
  });

  test('when a path is excluded, then everything else remains', () => {
    expect(applyFilterPath({ a: 1, b: { c: 2, d: 3 } }, '-b.c')).toEqual({ a: 1, b: { d: 3 } });
  });

  test('when nothing matches, then the body is an empty object', () => {
    expect(applyFilterPath(body, 'nothing')).toEqual({});
  });
});
