import { topicMatches } from './topic-pattern.matcher';

describe('topicMatches', () => {
  it.each([
    ['reference.changed', 'reference.changed', true],
    ['reference.changed', 'reference.created', false],
    ['reference.*', 'reference.changed', true],
    ['reference.*', 'reference', false],
    ['reference.*', 'reference.changed.deep', false],
    ['*.changed', 'reference.changed', true],
    ['reference.#', 'reference', true],
    ['reference.#', 'reference.changed.deep', true],
    ['#', 'anything.at.all', true],
    ['#', '', true],
    ['#.changed', 'reference.changed', true],
    ['#.changed', 'changed', true],
    ['#.changed', 'reference.created', false],
    ['a.#.z', 'a.b.c.z', true],
    ['a.#.z', 'a.z', true],
    ['a.#.z', 'a.b.c', false],
    ['a.*.#', 'a', false],
    ['a.*.#', 'a.b', true],
  ])('when the binding is %p and the routing key %p, then it matches: %p', (pattern, key, expected) => {
    expect(topicMatches(pattern, key)).toBe(expected);
  });
});
