import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTEXT, VOCABULARY_JSONLD, VOCABULARY_TURTLE } from './linked-data-fixtures';

// A local HTTP server with what full-text and linked-data enhancements point at.

/** Bytes that look like a small PDF (header, body, trailer), different per seed. */
export function pdfLike(bytes: number, seed = 1): Buffer {
  const body = Buffer.alloc(bytes);
  for (let index = 0; index < bytes; index += 1) body[index] = (index * 31 + seed * 17) % 251;
  Buffer.from('%PDF-1.7\n').copy(body, 0);
  Buffer.from('\n%%EOF\n').copy(body, bytes - 7);
  return body;
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface ContentServer {
  base: string;
  paper: Buffer;
  /** Requests per path. */
  hits: Map<string, number>;
  stop(): Promise<void>;
}

export async function startContentServer(options: { bigBytes: number }): Promise<ContentServer> {
  const paper = pdfLike(300_000);
  const hits = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    switch (path) {
      case '/paper.pdf':
        response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': paper.length });
        return response.end(paper);
      case '/paper-chunked.pdf':
        response.writeHead(200, { 'content-type': 'application/pdf' });
        for (let offset = 0; offset < paper.length; offset += 64 * 1024) response.write(paper.subarray(offset, offset + 64 * 1024));
        return response.end();
      case '/big.pdf': {
        // Chunked, so only the streamed count can notice it is too big.
        response.writeHead(200, { 'content-type': 'application/pdf' });
        const piece = pdfLike(16 * 1024, 2);
        let sent = 0;
        const pump = () => {
          while (sent < options.bigBytes) {
            sent += piece.length;
            if (!response.write(piece)) return response.once('drain', pump);
          }
          response.end();
        };
        response.on('error', () => undefined);
        return pump();
      }
      case '/moved.pdf':
        response.writeHead(302, { location: '/paper.pdf' });
        return response.end();
      case '/gone.pdf':
        response.writeHead(404);
        return response.end('not here');
      case '/context.jsonld':
        response.writeHead(200, { 'content-type': 'application/ld+json' });
        return response.end(JSON.stringify(CONTEXT));
      case '/vocabulary.ttl':
        response.writeHead(200, { 'content-type': 'text/turtle' });
        return response.end(VOCABULARY_TURTLE);
      case '/vocabulary.jsonld':
        response.writeHead(200, { 'content-type': 'application/ld+json' });
        return response.end(JSON.stringify(VOCABULARY_JSONLD));
      case '/vocabulary-broken.ttl':
        response.writeHead(200, { 'content-type': 'text/turtle' });
        return response.end('@prefix d: <https://vocab.example.org/destiny#> .\nd:Study a d:Class');
      default:
        response.writeHead(404);
        return response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paper,
    hits,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
