// The MongoDB wire protocol over TCP: OP_QUERY (legacy handshake) answered with OP_REPLY, and
// OP_MSG (section kinds 0 and 1, checksum tolerated, moreToCome honoured). Messages of one
// connection are handled in order; connections run concurrently.
import net from 'node:net';
import { deserialize, serialize } from 'bson';
import { type Document } from './bson-value.order';
import { type CommandHandler, MAX_MESSAGE_SIZE_BYTES } from './command.handler';
import { DESERIALIZE_OPTIONS } from './bson.options';
import { EncodedReply } from './cursor-reply.encoder';
import { cstringEnd, valueSize } from './bson-field.reader';
import { STATEMENT_DESERIALIZE_OPTIONS } from './update-statement.elements';

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
const HEADER_BYTES = 16;
const CHECKSUM_PRESENT = 1 << 0;
const MORE_TO_COME = 1 << 1;

interface Message {
  requestId: number;
  opCode: number;
  body: Buffer;
}

export interface WireServer {
  readonly port: number;
  close(): Promise<void>;
}

function readCString(buffer: Buffer, offset: number): [string, number] {
  const end = buffer.indexOf(0, offset);
  if (end < 0) throw new Error('unterminated cstring');
  return [buffer.toString('utf8', offset, end), end + 1];
}

function readDocument(buffer: Buffer, offset: number): [Document, number] {
  const length = buffer.readInt32LE(offset);
  if (length < 5 || offset + length > buffer.length) throw new Error('invalid BSON document length');
  const bytes = buffer.subarray(offset, offset + length);
  return [deserialize(bytes, DESERIALIZE_OPTIONS), offset + length];
}

/**
 * Parses an OP_MSG into its command: the body section plus document sequences merged in. The
 * documents of an insert stay raw BSON (returned separately) so they are stored without decoding;
 * the statements of an update are decoded and also returned as bytes.
 */
function parseOpMsg(body: Buffer): { command: Document; rawDocuments?: Uint8Array[]; moreToCome: boolean } {
  const flags = body.readUInt32LE(0);
  const end = flags & CHECKSUM_PRESENT ? body.length - 4 : body.length;
  let offset = 4;
  let command: Document | undefined;
  let bodyStart = 0;
  const sequences: [string, Uint8Array[]][] = [];
  while (offset < end) {
    const kind = body[offset];
    offset += 1;
    if (kind === 0) {
      bodyStart = offset;
      [command, offset] = readDocument(body, offset);
    } else if (kind === 1) {
      const size = body.readInt32LE(offset);
      const sectionEnd = offset + size;
      const [identifier, afterIdentifier] = readCString(body, offset + 4);
      let cursor = afterIdentifier;
      const documents: Uint8Array[] = [];
      while (cursor < sectionEnd) {
        const length = body.readInt32LE(cursor);
        if (length < 5 || cursor + length > sectionEnd) throw new Error('invalid BSON document length');
        documents.push(body.subarray(cursor, cursor + length));
        cursor += length;
      }
      sequences.push([identifier, documents]);
      offset = sectionEnd;
    } else {
      throw new Error(`unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!command) throw new Error('OP_MSG without a body section');
  let rawDocuments: Uint8Array[] | undefined;
  const commandName = Object.keys(command)[0];
  const isInsert = commandName === 'insert';
  const isUpdate = commandName === 'update';
  for (const [identifier, documents] of sequences) {
    if (isInsert && identifier === 'documents') {
      rawDocuments = ownedViews(documents);
      continue;
    }
    // An update's statements also stay available as bytes: spliced $push copies the pushed elements
    // from them, so their `$each` elements are left undecoded until something else needs them.
    const statements = isUpdate && identifier === 'updates';
    command[identifier] = documents.map((document) => deserialize(document, statements ? STATEMENT_DESERIALIZE_OPTIONS : DESERIALIZE_OPTIONS));
    if (statements) rawDocuments = documents;
  }
  if (isUpdate && !rawDocuments) rawDocuments = documentsOfArray(body, bodyStart, 'updates');
  return { command, rawDocuments, moreToCome: (flags & MORE_TO_COME) !== 0 };
}

/** Views of the documents in the top-level array field `name` of the document at `start`; undefined when it is not an array of documents. */
function documentsOfArray(buffer: Buffer, start: number, name: string): Uint8Array[] | undefined {
  const last = start + buffer.readInt32LE(start) - 1;
  let offset = start + 4;
  while (offset < last) {
    const type = buffer[offset];
    const nameEnd = cstringEnd(buffer, offset + 1);
    const end = nameEnd + 1 + valueSize(type, buffer, nameEnd + 1);
    if (type === 0x04 && buffer.toString('utf8', offset + 1, nameEnd) === name) {
      const documents: Uint8Array[] = [];
      let element = nameEnd + 1 + 4;
      while (element < end - 1) {
        const elementType = buffer[element];
        const elementNameEnd = cstringEnd(buffer, element + 1);
        const elementEnd = elementNameEnd + 1 + valueSize(elementType, buffer, elementNameEnd + 1);
        if (elementType !== 0x03) return undefined;
        documents.push(buffer.subarray(elementNameEnd + 1, elementEnd));
        element = elementEnd;
      }
      return documents;
    }
    offset = end;
  }
  return undefined;
}

/**
 * Inserted documents are stored as the views into the message the parser made (received buffers
 * are never reused or modified). A short message may sit in a much larger buffer, which the
 * stored views would keep alive: then the documents are copied once, as one block.
 */
function ownedViews(documents: Uint8Array[]): Uint8Array[] {
  if (documents.length === 0) return documents;
  const start = documents[0].byteOffset;
  const last = documents[documents.length - 1];
  const bytes = last.byteOffset + last.length - start;
  if (documents[0].buffer.byteLength <= 2 * bytes) return documents;
  const copy = Buffer.allocUnsafe(bytes);
  copy.set(new Uint8Array(documents[0].buffer, start, bytes));
  return documents.map((document) => copy.subarray(document.byteOffset - start, document.byteOffset - start + document.length));
}

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const buffer = Buffer.allocUnsafe(HEADER_BYTES);
  buffer.writeInt32LE(length, 0);
  buffer.writeInt32LE(requestId, 4);
  buffer.writeInt32LE(responseTo, 8);
  buffer.writeInt32LE(opCode, 12);
  return buffer;
}

let nextResponseId = 1;

/** Writes an OP_MSG reply as one vectored write (a large batch is not copied into one buffer). */
function writeOpMsgReply(socket: net.Socket, responseTo: number, reply: Document | EncodedReply): void {
  const document = reply instanceof EncodedReply ? reply.bytes : serialize(reply, { checkKeys: false });
  const prefix = Buffer.allocUnsafe(HEADER_BYTES + 5);
  prefix.writeInt32LE(prefix.length + document.length, 0);
  prefix.writeInt32LE(nextResponseId++, 4);
  prefix.writeInt32LE(responseTo, 8);
  prefix.writeInt32LE(OP_MSG, 12);
  prefix.writeUInt32LE(0, HEADER_BYTES);
  prefix[HEADER_BYTES + 4] = 0;
  socket.cork();
  socket.write(prefix);
  socket.write(document);
  socket.uncork();
}

function opReply(responseTo: number, reply: Document | EncodedReply): Buffer {
  const document = reply instanceof EncodedReply ? reply.bytes : serialize(reply, { checkKeys: false });
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(0, 0); // responseFlags
  fields.writeBigInt64LE(0n, 4); // cursorID
  fields.writeInt32LE(0, 12); // startingFrom
  fields.writeInt32LE(1, 16); // numberReturned
  const length = HEADER_BYTES + fields.length + document.length;
  return Buffer.concat([header(length, nextResponseId++, responseTo, OP_REPLY), fields, document]);
}

export function startWireServer(handler: CommandHandler, host: string, port: number, onError: (error: Error) => void): Promise<WireServer> {
  const sockets = new Set<net.Socket>();
  let connectionIds = 0;

  const server = net.createServer((socket) => {
    sockets.add(socket);
    handler.connectionCount += 1;
    socket.setNoDelay(true);
    const connection = { id: (connectionIds += 1) };
    // Incoming bytes are kept as a list of chunks and joined once per message: concatenating on
    // every chunk would copy a 48 MB insert batch hundreds of times.
    let chunks: Buffer[] = [];
    let bufferedBytes = 0;
    let queue: Promise<void> = Promise.resolve();

    const process = async (message: Message): Promise<void> => {
      if (message.opCode === OP_MSG) {
        const { command, rawDocuments, moreToCome } = parseOpMsg(message.body);
        const database = command.$db;
        const reply = await handler.execute(typeof database === 'string' ? database : '', command, connection, rawDocuments);
        if (!moreToCome && !socket.destroyed) writeOpMsgReply(socket, message.requestId, reply);
        return;
      }
      if (message.opCode === OP_QUERY) {
        const flagsLength = 4;
        const [namespace, afterName] = readCString(message.body, flagsLength);
        let [query] = readDocument(message.body, afterName + 8);
        if (isWrapped(query)) query = query.$query as Document;
        const database = namespace.endsWith('.$cmd') ? namespace.slice(0, -'.$cmd'.length) : namespace;
        const name = Object.keys(query)[0];
        const reply =
          name === 'hello' || name === 'isMaster' || name === 'ismaster'
            ? await handler.execute(database, query, connection)
            : { ok: 0, errmsg: `Unsupported OP_QUERY command: ${name}. The client driver may require an upgrade.`, code: 352, codeName: 'UnsupportedOpQueryCommand' };
        if (!socket.destroyed) socket.write(opReply(message.requestId, reply));
        return;
      }
      // OP_COMPRESSED is never advertised and legacy opcodes are gone from MongoDB 7: drop the connection.
      throw new Error(`unsupported opCode ${message.opCode}`);
    };

    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      bufferedBytes += chunk.length;
      while (bufferedBytes >= HEADER_BYTES) {
        if (chunks[0].length < HEADER_BYTES) chunks = [Buffer.concat(chunks, bufferedBytes)];
        const length = chunks[0].readInt32LE(0);
        if (length < HEADER_BYTES || length > MAX_MESSAGE_SIZE_BYTES + HEADER_BYTES) {
          socket.destroy();
          return;
        }
        if (bufferedBytes < length) break;
        const data = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, bufferedBytes);
        const message: Message = {
          requestId: data.readInt32LE(4),
          opCode: data.readInt32LE(12),
          body: data.subarray(HEADER_BYTES, length),
        };
        const rest = data.subarray(length);
        chunks = rest.length > 0 ? [rest] : [];
        bufferedBytes = rest.length;
        queue = queue
          .then(() => process(message))
          .catch((error: unknown) => {
            onError(error as Error);
            socket.destroy();
          });
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      sockets.delete(socket);
      handler.connectionCount -= 1;
    });
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as net.AddressInfo;
      resolve({
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

function isWrapped(query: Document): boolean {
  return Object.keys(query)[0] === '$query';
}
