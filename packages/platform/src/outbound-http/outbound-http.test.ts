import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { createAddressPolicy } from './address-policy';
import { createOutboundHttpClient, OutboundRequestError } from './outbound-http';

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url === '/redirect') {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return response.end();
    }
    if (request.url === '/big') {
      response.writeHead(200);
      return response.end(Buffer.alloc(5000, 97));
    }
    if (request.url === '/big-chunked') {
      response.writeHead(200, { 'transfer-encoding': 'chunked' });
      for (let index = 0; index < 10; index += 1) response.write(Buffer.alloc(1000, 98));
      return response.end();
    }
    if (request.url === '/cut') {
      response.writeHead(200, { 'content-length': '800' });
      response.write(Buffer.alloc(300, 99));
      setTimeout(() => response.socket?.destroy(), 20);
      return;
    }
    if (request.url === '/stalls') {
      response.writeHead(200, { 'content-length': '800' });
      response.write(Buffer.alloc(300, 99));
      return;
    }
    const encoded: Record<string, [string, Buffer]> = {
      '/gzip': ['gzip', zlib.gzipSync('compressed hello')],
      '/deflate': ['deflate', zlib.deflateSync('deflated hello')],
      '/br': ['br', zlib.brotliCompressSync('brotli hello')],
      // 100 KB of zeros in a few hundred bytes: only the decoded size counts against the limit.
      '/gzip-bomb': ['gzip', zlib.gzipSync(Buffer.alloc(100_000))],
      '/bad-gzip': ['gzip', Buffer.from('not gzip at all')],
      '/compress': ['compress', Buffer.from('lzw')],
    };
    if (request.url && encoded[request.url]) {
      const [encoding, body] = encoded[request.url];
      response.writeHead(200, { 'content-encoding': encoding, 'content-length': String(body.length) });
      return response.end(body);
    }
    if (request.url === '/trickle') {
      // Headers at once, then a byte every 20 ms: never idle, never done.
      response.writeHead(200, { 'content-length': '100000' });
      const timer = setInterval(() => response.write('x'), 20);
      response.on('close', () => clearInterval(timer));
      return;
    }
    if (request.url === '/slow') {
      setTimeout(() => response.end('late'), 2000).unref();
      return;
    }
    if (request.method === 'POST') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => response.end(`echo:${Buffer.concat(chunks).toString()}`));
      return;
    }
    response.end('hello');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function failure(promise: Promise<unknown>): Promise<OutboundRequestError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(OutboundRequestError);
    return error as OutboundRequestError;
  }
  throw new Error('expected the request to be refused');
}

describe('address policy', () => {
  const policy = createAddressPolicy([]);

  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00:ec2::254', '::ffff:10.0.0.1', '::ffff:127.0.0.1', '::127.0.0.1', '2002:7f00:1::', '2001:0:4136:e378:8000:63bf:3fff:fdd2'])(
    'when the address is %s, then it is refused by default',
    (address) => {
      expect(policy.addressAllowed(address)).toBe(false);
    },
  );

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('when the address is public (%s), then it is allowed', (address) => {
    expect(policy.addressAllowed(address)).toBe(true);
  });

  it('when the allow-list names hosts and CIDRs, then exactly those are allowed', () => {
    const allowing = createAddressPolicy(['127.0.0.0/8', '::1', 'blob.local']);
    expect(allowing.addressAllowed('127.0.0.5')).toBe(true);
    expect(allowing.addressAllowed('::1')).toBe(true);
    expect(allowing.addressAllowed('10.0.0.1')).toBe(false);
    expect(allowing.hostAllowed('BLOB.local')).toBe(true);
    expect(allowing.hostAllowed('127.0.0.1')).toBe(true);
    expect(allowing.hostAllowed('example.org')).toBe(false);
  });
});

describe('outbound HTTP client', () => {
  const guarded = createOutboundHttpClient({ allowlist: [], maxBytes: 1024, timeoutMs: 1000 });
  const loopback = createOutboundHttpClient({ allowlist: ['127.0.0.0/8'], maxBytes: 1024, timeoutMs: 500 });

  it('when the target is a host name over plain http and nothing is allowed, then the scheme is refused', async () => {
    expect(await failure(guarded.request({ url: 'http://example.org/file.jsonl' }))).toMatchObject({ reason: 'scheme_not_allowed', message: 'plain http is not allowed for example.org; use https' });
  });

  it('when the target is a refused address over plain http, then the address is named as refused, as it would be over https', async () => {
    expect(await failure(guarded.request({ url: `${base}/` }))).toMatchObject({ reason: 'blocked_address', message: '127.0.0.1 may not be reached' });
    expect(await failure(guarded.check('http://169.254.169.254/latest/meta-data/'))).toMatchObject({ reason: 'blocked_address', message: '169.254.169.254 may not be reached' });
  });

  it('when the target is a loopback IP over https, then the address is refused before connecting', async () => {
    expect((await failure(guarded.request({ url: 'https://127.0.0.1:1/' }))).reason).toBe('blocked_address');
  });

  it('when a host name resolves to loopback, then it is refused after DNS resolution', async () => {
    expect((await failure(guarded.request({ url: 'https://localhost:1/' }))).reason).toBe('blocked_address');
  });

  it('when the target is the metadata address or a private range, then it is refused', async () => {
    expect((await failure(guarded.request({ url: 'https://169.254.169.254/latest/meta-data/' }))).reason).toBe('blocked_address');
    expect((await failure(guarded.request({ url: 'https://10.0.0.8/file.jsonl' }))).reason).toBe('blocked_address');
    expect((await failure(guarded.request({ url: 'https://[::1]/' }))).reason).toBe('blocked_address');
  });

  it('when the scheme is not http(s), then it is refused', async () => {
    expect((await failure(guarded.request({ url: 'file:///etc/passwd' }))).reason).toBe('scheme_not_allowed');
    expect((await failure(guarded.request({ url: 'not a url' }))).reason).toBe('invalid_url');
  });

  it('when loopback is allow-listed, then plain http to it works and bodies are sent', async () => {
    const response = await loopback.request({ url: `${base}/` });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('hello');
    const echoed = await loopback.request({ url: `${base}/echo`, method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(echoed.body.toString()).toBe('echo:{"a":1}');
  });

  it('when the server redirects, then the redirect is not followed', async () => {
    const error = await failure(loopback.request({ url: `${base}/redirect` }));
    expect(error.reason).toBe('redirect');
    expect(error.message).toMatch(/302/);
  });

  it('when the declared or streamed size exceeds the limit, then the response is refused', async () => {
    expect((await failure(loopback.request({ url: `${base}/big` }))).reason).toBe('too_large');
    expect((await failure(loopback.request({ url: `${base}/big-chunked` }))).reason).toBe('too_large');
  });

  it('when a streamed body outgrows the limit, then the reader gets exactly the bytes up to the limit before the error', async () => {
    for (const path of ['/big-chunked', '/gzip-bomb']) {
      const response = await loopback.stream({ url: `${base}${path}` });
      let received = 0;
      let error: unknown;
      try {
        for await (const chunk of response.body) {
          received += (chunk as Buffer).length;
          // A slow reader: the bytes before the limit must still be waiting for it.
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } catch (caught) {
        error = caught;
      }
      expect(received).toBe(1024);
      expect(error).toMatchObject({ reason: 'too_large' });
    }
  });

  it('when the server is too slow, then the request times out', async () => {
    expect((await failure(loopback.request({ url: `${base}/slow` }))).reason).toBe('timeout');
  });

  it('when the body is cut short or stalls after the headers, then reading it fails as a network failure or a timeout saying so', async () => {
    expect(await failure(loopback.request({ url: `${base}/cut` }))).toMatchObject({ reason: 'network' });
    expect(await failure(loopback.request({ url: `${base}/stalls` }))).toMatchObject({ reason: 'timeout', message: expect.stringMatching(/^no data from 127\.0\.0\.1:\d+ for 500 ms$/) });
  });

  it('when the body trickles in slower than the least worth waiting for, then it is cut off as a timeout though never idle', async () => {
    const started = Date.now();
    const error = await failure(loopback.request({ url: `${base}/trickle`, maxBytes: 1_000_000 }));
    expect(error).toMatchObject({ reason: 'timeout', message: expect.stringMatching(/arrived slower than 512 bytes in 500 ms$/) });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('when the status line and headers trickle in, then the request times out after its limit from the start, though never idle', async () => {
    // A raw socket: an HTTP server cannot send its own status line a byte at a time.
    const trickler = net.createServer((socket) => {
      const bytes = Buffer.from('HTTP/1.1 200 OK\r\nX-Padding: ' + 'a'.repeat(1000));
      let index = 0;
      const timer = setInterval(() => (index < bytes.length ? socket.write(bytes.subarray(index, ++index)) : clearInterval(timer)), 20);
      socket.on('close', () => clearInterval(timer));
      socket.on('error', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => trickler.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      const error = await failure(loopback.stream({ url: `http://127.0.0.1:${(trickler.address() as AddressInfo).port}/`, method: 'POST', body: '{}' }));
      expect(error).toMatchObject({ reason: 'timeout', requestSent: true, message: expect.stringMatching(/^no response from 127\.0\.0\.1:\d+ within 500 ms$/) });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await new Promise((resolve) => trickler.close(resolve));
    }
  });

  it('when the body is compressed (gzip, deflate, br), then it is decoded, and the limit applies to the decoded bytes', async () => {
    expect((await loopback.request({ url: `${base}/gzip` })).body.toString()).toBe('compressed hello');
    expect((await loopback.request({ url: `${base}/deflate` })).body.toString()).toBe('deflated hello');
    expect((await loopback.request({ url: `${base}/br` })).body.toString()).toBe('brotli hello');
    expect((await failure(loopback.request({ url: `${base}/gzip-bomb` }))).reason).toBe('too_large');
  });

  it('when the body is not valid for its Content-Encoding, or the encoding is unknown, then it is refused as undecodable', async () => {
    expect(await failure(loopback.request({ url: `${base}/bad-gzip` }))).toMatchObject({ reason: 'undecodable', message: expect.stringMatching(/not valid gzip/) });
    expect(await failure(loopback.request({ url: `${base}/compress` }))).toMatchObject({ reason: 'undecodable', message: expect.stringMatching(/compress is not supported/) });
  });

  it('when a URL is only checked, then blocked targets are reported without a request', async () => {
    await expect(guarded.check('https://127.0.0.1/')).rejects.toMatchObject({ reason: 'blocked_address' });
    await expect(loopback.check(`${base}/`)).resolves.toBeUndefined();
  });

  it('when a name over plain http resolves to a refused address, then the check names the address, not the scheme', async () => {
    expect(await failure(guarded.check('http://localhost:1/file.jsonl'))).toMatchObject({ reason: 'blocked_address', message: expect.stringMatching(/^localhost resolves to (127\.0\.0\.1|::1), which may not be reached$/) });
    expect(await failure(guarded.check('http://no-such-host.invalid/file.jsonl'))).toMatchObject({ reason: 'scheme_not_allowed', message: 'plain http is not allowed for no-such-host.invalid; use https' });
  });

  it('when a checked host does not resolve (yet), then the check passes and the request itself fails as a network error', async () => {
    // `.invalid` never resolves (RFC 6761); a DNS outage looks the same to the check.
    await expect(guarded.check('https://no-such-host.invalid/file.jsonl')).resolves.toBeUndefined();
    expect((await failure(guarded.request({ url: 'https://no-such-host.invalid/file.jsonl' }))).reason).toBe('network');
  });
});
