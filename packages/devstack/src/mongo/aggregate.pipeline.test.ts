import { pipelineFields } from './aggregate.pipeline';

describe('pipelineFields', () => {
  test('when a count follows the match ($group of a constant, $count), then no field is read', () => {
    expect(pipelineFields([{ $group: { _id: 1, n: { $sum: 1 } } }])).toEqual(new Set());
    expect(pipelineFields([{ $skip: 2 }, { $limit: 5 }, { $count: 'n' }])).toEqual(new Set());
  });

  test('when stages name fields in expressions, sorts, filters and unwinds, then their top-level fields are read', () => {
    expect(pipelineFields([{ $group: { _id: '$status', total: { $sum: { $multiply: ['$price.amount', '$quantity'] } } } }])).toEqual(new Set(['status', 'price', 'quantity']));
    expect(pipelineFields([{ $match: { 'a.b': 1, $or: [{ c: 2 }, { d: 3 }] } }, { $sort: { 'e.f': 1 } }, { $unwind: '$g' }, { $count: 'n' }])).toEqual(new Set(['a', 'c', 'd', 'e', 'g']));
    expect(pipelineFields([{ $sortByCount: '$tag' }])).toEqual(new Set(['tag']));
    expect(pipelineFields([{ $group: { _id: { $map: { input: '$items', as: 'item', in: '$$item.name' } } } }])).toEqual(new Set(['items']));
  });

  test('when an inclusion $project ends the reads, then its fields and _id are read', () => {
    expect(pipelineFields([{ $project: { 'a.b': 1, c: true, d: '$e', f: { g: 1 } } }])).toEqual(new Set(['_id', 'a', 'c', 'd', 'e', 'f']));
    expect(pipelineFields([{ $project: { _id: 0, a: 1 } }])).toEqual(new Set(['a']));
  });

  test('when whole documents are needed, then the answer is undefined', () => {
    expect(pipelineFields([])).toBeUndefined();
    expect(pipelineFields([{ $sort: { a: 1 } }])).toBeUndefined();
    expect(pipelineFields([{ $group: { _id: '$a', all: { $push: '$$ROOT' } } }])).toBeUndefined();
    expect(pipelineFields([{ $group: { _id: '$$CURRENT.a' } }])).toBeUndefined();
    expect(pipelineFields([{ $project: { a: 0 } }])).toBeUndefined();
    expect(pipelineFields([{ $project: { a: { b: 0 } } }])).toBeUndefined();
    expect(pipelineFields([{ $addFields: { x: 1 } }, { $count: 'n' }])).toBeUndefined();
    expect(pipelineFields([{ $lookup: { from: 'b', localField: 'a', foreignField: '_id', as: 'c' } }, { $count: 'n' }])).toBeUndefined();
    expect(pipelineFields([{ $match: { $where: 'true' } }, { $count: 'n' }])).toBeUndefined();
  });
});
