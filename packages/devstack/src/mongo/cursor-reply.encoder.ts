// Encodes cursor replies ({cursor: {firstBatch|nextBatch, id, ns}, ok: 1}) by hand, so documents
// kept as stored BSON bytes are copied into the reply instead of being decoded and re-encoded.
import { serialize } from 'bson';
import { type CursorReply } from './cursor.registry';

/** A command reply that is already BSON. */
export class EncodedReply {
  constructor(readonly bytes: Uint8Array) {}
}

const BSON_DOCUMENT = 0x03;
const BSON_ARRAY = 0x04;
const BSON_STRING = 0x02;
const BSON_INT64 = 0x12;
const BSON_DOUBLE = 0x01;

export function encodeCursorReply(reply: CursorReply): EncodedReply {
  const batchName = reply.firstBatch ? 'firstBatch' : 'nextBatch';
  const documents = (reply.firstBatch ?? reply.nextBatch ?? []).map((document) => (document instanceof Uint8Array ? document : serialize(document, { checkKeys: false })));
  const keys = documents.map((_document, index) => String(index));
  let arraySize = 5;
  documents.forEach((document, index) => {
    arraySize += 1 + keys[index].length + 1 + document.length;
  });
  const namespaceBytes = Buffer.byteLength(reply.ns, 'utf8');
  const cursorSize = 4 + (1 + batchName.length + 1 + arraySize) + (1 + 3 + 8) + (1 + 3 + 4 + namespaceBytes + 1) + 1;
  const totalSize = 4 + (1 + 'cursor'.length + 1 + cursorSize) + (1 + 3 + 8) + 1;
  const out = Buffer.allocUnsafe(totalSize);
  let at = 0;
  const name = (type: number, text: string): void => {
    out[at] = type;
    at += 1;
    at += out.write(text, at, 'latin1');
    out[at] = 0;
    at += 1;
  };
  at = out.writeInt32LE(totalSize, at);
  name(BSON_DOCUMENT, 'cursor');
  at = out.writeInt32LE(cursorSize, at);
  name(BSON_ARRAY, batchName);
  at = out.writeInt32LE(arraySize, at);
  documents.forEach((document, index) => {
    name(BSON_DOCUMENT, keys[index]);
    out.set(document, at);
    at += document.length;
  });
  out[at] = 0;
  at += 1;
  name(BSON_INT64, 'id');
  at = out.writeInt32LE(reply.id.low, at);
  at = out.writeInt32LE(reply.id.high, at);
  name(BSON_STRING, 'ns');
  at = out.writeInt32LE(namespaceBytes + 1, at);
  at += out.write(reply.ns, at, 'utf8');
  out[at] = 0;
  at += 1;
  out[at] = 0;
  at += 1;
  name(BSON_DOUBLE, 'ok');
  at = out.writeDoubleLE(1, at);
  out[at] = 0;
  return new EncodedReply(out);
}
