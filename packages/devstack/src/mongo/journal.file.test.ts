import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { frameRecord, GroupCommitWriter, openJournalFile, readRecords } from './journal.file';

function joined(parts: Uint8Array[]): Buffer {
  return Buffer.concat(parts);
}

describe('journal records', () => {
  test('when records are framed and read back, then every payload returns intact', () => {
    const data = joined([...frameRecord([Buffer.from('hello'), Buffer.from(' world')]), ...frameRecord([Buffer.from('second')])]);
    const { records, validLength } = readRecords(data);
    expect(records.map((record) => record.toString())).toEqual(['hello world', 'second']);
    expect(validLength).toBe(data.length);
  });

  test('when the last record is cut short, then it is dropped and the valid length stops before it', () => {
    const first = joined(frameRecord([Buffer.from('kept')]));
    const second = joined(frameRecord([Buffer.from('torn record')]));
    const { records, validLength } = readRecords(Buffer.concat([first, second.subarray(0, second.length - 3)]));
    expect(records.map((record) => record.toString())).toEqual(['kept']);
    expect(validLength).toBe(first.length);
  });

  test('when the data ends with zeros a crash left unwritten, then they are not read as an empty record', () => {
    const kept = joined(frameRecord([Buffer.from('kept')]));
    const { records, validLength } = readRecords(Buffer.concat([kept, Buffer.alloc(64)]));
    expect(records.map((record) => record.toString())).toEqual(['kept']);
    expect(validLength).toBe(kept.length);
  });

  test('when a payload byte is flipped, then the checksum rejects the record', () => {
    const data = joined(frameRecord([Buffer.from('payload')]));
    data[data.length - 1] ^= 0xff;
    expect(readRecords(data).records).toHaveLength(0);
  });

  test('when many writers sync concurrently, then all records reach the file in append order', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'journal-test-')), 'journal.log');
    const fd = openJournalFile(file);
    const writer = new GroupCommitWriter();
    const syncs: Promise<void>[] = [];
    for (let index = 0; index < 50; index += 1) {
      writer.append(fd, frameRecord([Buffer.from(`record-${index}`)]));
      syncs.push(writer.sync());
    }
    await Promise.all(syncs);
    fs.closeSync(fd);
    const { records } = readRecords(fs.readFileSync(file));
    expect(records.map((record) => record.toString())).toEqual(Array.from({ length: 50 }, (_unused, index) => `record-${index}`));
  });
});
