import { serialiseJsonLine, serialiseJsonLines } from './jsonl-line.serialiser';

describe('serialiseJsonLine (§1.4)', () => {
  it('when a record has null keys at any depth, then they are omitted and empty arrays kept', () => {
    expect(serialiseJsonLine({ visibility: 'public', id: 'x', identifiers: [], enhancements: [{ id: null, robot_version: null, content: { title: null, a: 1 } }] })).toBe(
      '{"visibility":"public","id":"x","identifiers":[],"enhancements":[{"content":{"a":1}}]}',
    );
  });

  it('when text holds U+0085, U+2028 or U+2029, then each becomes the two characters \\n', () => {
    const line = serialiseJsonLine({ abstract: 'a\u0085b\u2028c\u2029d' });
    expect(line).toBe('{"abstract":"a\\nb\\nc\\nd"}');
    expect(line.split(/\r\n|\r|\n|\u0085|\u2028|\u2029/)).toHaveLength(1);
    expect(JSON.parse(line)).toEqual({ abstract: 'a\nb\nc\nd' });
  });

  it('when several records are written, then each ends with a newline', () => {
    expect(serialiseJsonLines([{ reference_id: 'a' }, { reference_id: 'b', error: 'e' }])).toBe('{"reference_id":"a"}\n{"reference_id":"b","error":"e"}\n');
  });
});
