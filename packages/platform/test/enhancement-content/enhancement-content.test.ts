import { startBlob } from '@destiny/devstack/blob';
import { createBlobStorage, type BlobStorage } from '../../src/blob/blob-storage';
import { createEnhancementContentPreparer, type EnhancementContentPreparer } from '../../src/enhancement-content/enhancement-content.preparer';
import { createFullTextLinks } from '../../src/enhancement-content/full-text.links';
import { storedFullTextKeyOf } from '../../src/enhancement-content/full-text.location';
import { createFullTextStore } from '../../src/enhancement-content/full-text.store';
import { createLinkedDataValidator, LINKED_DATA_INVALID, VOCABULARY_UNAVAILABLE } from '../../src/enhancement-content/linked-data.validator';
import { createOutboundHttpClient } from '../../src/outbound-http/outbound-http';
import { sha256, startContentServer, type ContentServer } from './content-server';
import { studyData } from './linked-data-fixtures';

// Full-text ingestion and linked-data validation against a local HTTP server and the S3 stand-in
// through the minio client.

const MAX_BYTES = 1024 * 1024;
const loopback = createOutboundHttpClient({ allowlist: ['127.0.0.0/8'], maxBytes: MAX_BYTES, timeoutMs: 5000 });

describe('enhancement content: full texts and linked data', () => {
  let blobServer: Awaited<ReturnType<typeof startBlob>>;
  let blob: BlobStorage;
  let server: ContentServer;
  let preparer: EnhancementContentPreparer;
  let clock = 0;

  const makePreparer = (outbound = loopback, storage: BlobStorage | null = blob) =>
    createEnhancementContentPreparer({
      fullTexts: createFullTextStore({ outbound, blob: storage, maxBytes: MAX_BYTES, timeoutMs: 5000 }),
      linkedData: createLinkedDataValidator({ outbound, maxDocumentBytes: 64 * 1024, timeoutMs: 5000, cacheTtlMs: 60_000, now: () => clock }),
    });

  beforeAll(async () => {
    blobServer = await startBlob({ port: 0 });
    blob = createBlobStorage({ endpoint: blobServer.url, accessKey: blobServer.accessKey, secretKey: blobServer.secretKey, bucket: 'content-test' });
    await blob.ensureBucket();
    server = await startContentServer({ bigBytes: 3 * MAX_BYTES });
    preparer = makePreparer();
  });

  afterAll(async () => {
    await server.stop();
    await blobServer.stop();
  });

  const fullText = (path: string, extra: Record<string, unknown> = {}) => ({ enhancement_type: 'full_text', file_url: `${server.base}${path}`, ...extra });
  const linkedData = (vocabulary: string, data: Record<string, unknown>) => ({ enhancement_type: 'linked_data', vocabulary_uri: `${server.base}${vocabulary}`, data });

  describe('full texts', () => {
    it('when a full text downloads with its declared size and checksum, then the stored copy has the same bytes and the content names it', async () => {
      const prepared = await preparer.prepare(fullText('/paper.pdf', { byte_size: server.paper.length, sha256_checksum: sha256(server.paper).toUpperCase(), license: 'cc-by' }));
      if (!prepared.ok) throw new Error(prepared.message);
      expect(prepared.content).toMatchObject({ byte_size: server.paper.length, sha256_checksum: sha256(server.paper), mime_type: 'application/pdf', license: 'cc-by' });
      const key = storedFullTextKeyOf(prepared.content.file_url);
      expect(key).toBe(`full-texts/sha256/${sha256(server.paper)}`);
      const stored: Buffer[] = [];
      for await (const chunk of await blob.get(key as string)) stored.push(chunk as Buffer);
      expect(Buffer.compare(Buffer.concat(stored), server.paper)).toBe(0);
    });

    it('when nothing is declared and the server sends chunks, then size and checksum are filled in from the bytes', async () => {
      const prepared = await preparer.prepare(fullText('/paper-chunked.pdf', { mime_type: 'application/octet-stream' }));
      expect(prepared).toEqual({ ok: true, content: expect.objectContaining({ byte_size: server.paper.length, sha256_checksum: sha256(server.paper), mime_type: 'application/octet-stream' }) });
    });

    it('when the declared checksum or size is wrong, then the full text is rejected saying what differs', async () => {
      const wrongChecksum = await preparer.prepare(fullText('/paper.pdf', { sha256_checksum: '0'.repeat(64) }));
      expect(wrongChecksum).toEqual({ ok: false, message: `Full text at ${server.base}/paper.pdf has SHA-256 checksum ${sha256(server.paper)}, but sha256_checksum declares ${'0'.repeat(64)}.` });
      const wrongSize = await preparer.prepare(fullText('/paper-chunked.pdf', { byte_size: 10 }));
      expect(wrongSize).toEqual({ ok: false, message: `Full text at ${server.base}/paper-chunked.pdf has ${server.paper.length} bytes, but byte_size declares 10.` });
    });

    it('when the file is larger than the limit, then it is rejected and no partial copy is left behind', async () => {
      expect(await preparer.prepare(fullText('/big.pdf'))).toEqual({ ok: false, message: `Full text at ${server.base}/big.pdf is larger than the limit of ${MAX_BYTES} bytes.` });
      expect(await preparer.prepare(fullText('/paper.pdf', { byte_size: MAX_BYTES + 1 }))).toEqual({ ok: false, message: expect.stringContaining('more than the limit') });
      const incoming = await listKeys(blobServer.url, 'full-texts/incoming/');
      expect(incoming).toEqual([]);
    });

    it('when the server redirects or answers an error, then the redirect is not followed and the full text is rejected', async () => {
      const moved = await preparer.prepare(fullText('/moved.pdf'));
      expect(moved).toEqual({ ok: false, message: expect.stringMatching(/^Full text could not be downloaded from .*\/moved\.pdf: redirects are not followed \(got 302/) });
      expect(await preparer.prepare(fullText('/gone.pdf'))).toEqual({ ok: false, message: `Full text could not be downloaded from ${server.base}/gone.pdf: the server answered HTTP 404.` });
    });

    it('when the URL is on loopback and nothing is allow-listed, then it is refused before any request', async () => {
      const guarded = makePreparer(createOutboundHttpClient({ allowlist: [], maxBytes: MAX_BYTES, timeoutMs: 5000 }));
      const before = server.hits.get('/paper.pdf') ?? 0;
      const refused = await guarded.prepare({ enhancement_type: 'full_text', file_url: `https://127.0.0.1:${new URL(server.base).port}/paper.pdf` });
      expect(refused).toEqual({ ok: false, message: expect.stringMatching(/^Full text could not be downloaded from .*: 127\.0\.0\.1 may not be reached\.$/) });
      expect(server.hits.get('/paper.pdf') ?? 0).toBe(before);
    });

    it('when no blob storage is configured, then full texts are rejected and other content passes', async () => {
      const without = makePreparer(loopback, null);
      expect(await without.prepare(fullText('/paper.pdf'))).toEqual({ ok: false, message: 'Full texts cannot be stored: this deployment has no blob storage configured.' });
      const abstract = { enhancement_type: 'abstract', process: 'other', abstract: 'A.' };
      expect(await without.prepare(abstract)).toEqual({ ok: true, content: abstract });
    });

    it('when a stored full text is presented, then its file_url is a signed URL that downloads the same bytes, and without storage it is left out', async () => {
      const prepared = await preparer.prepare(fullText('/paper.pdf'));
      if (!prepared.ok) throw new Error(prepared.message);
      const legacy = { content: { enhancement_type: 'full_text', file_url: 'https://files.example.org/a.pdf' } };
      const reference = { id: 'r1', enhancements: [{ id: 'e1', content: prepared.content }, legacy] };
      const presented = await createFullTextLinks(blob, 3600).present(reference);
      const signed = presented.enhancements[0].content.file_url as string;
      expect(signed.startsWith(`${blobServer.url}/content-test/full-texts/sha256/`)).toBe(true);
      const download = await fetch(signed);
      expect(download.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.compare(Buffer.from(await download.arrayBuffer()), server.paper)).toBe(0);
      expect(presented.enhancements[1]).toBe(legacy);
      expect(reference.enhancements[0].content.file_url).toBe(prepared.content.file_url);
      expect((await createFullTextLinks(null, 3600).present(reference)).enhancements).toEqual([legacy]);
    });
  });

  describe('linked data', () => {
    it('when the data uses only terms its Turtle or JSON-LD vocabulary defines, then it is valid', async () => {
      expect(await preparer.prepare(linkedData('/vocabulary.ttl', studyData(`${server.base}/context.jsonld`)))).toMatchObject({ ok: true });
      expect(await preparer.prepare(linkedData('/vocabulary.jsonld', studyData(`${server.base}/context.jsonld`)))).toMatchObject({ ok: true });
    });

    it('when the data uses a property the vocabulary does not define, then validation fails naming it', async () => {
      const result = await preparer.prepare(linkedData('/vocabulary.ttl', studyData(`${server.base}/context.jsonld`, { unknownTerm: 'x' })));
      expect(result).toEqual({ ok: false, message: `${LINKED_DATA_INVALID}property <https://vocab.example.org/destiny#notInVocabulary> is not defined in the vocabulary (vocabulary ${server.base}/vocabulary.ttl).` });
    });

    it('when the data has a key its context does not map, or expands to nothing, then validation fails instead of dropping it', async () => {
      const unmapped = await preparer.prepare(linkedData('/vocabulary.ttl', studyData(`${server.base}/context.jsonld`, { colour: 'red' })));
      expect(unmapped).toEqual({ ok: false, message: expect.stringMatching(/^LinkedData validation failed: .*"colour"/) });
      const empty = await preparer.prepare(linkedData('/vocabulary.ttl', { '@context': `${server.base}/context.jsonld` }));
      expect(empty).toEqual({ ok: false, message: expect.stringMatching(/^LinkedData validation failed: .*empty/i) });
    });

    it('when the context cannot be fetched, then validation fails saying so', async () => {
      const result = await preparer.prepare(linkedData('/vocabulary.ttl', studyData(`${server.base}/no-context.jsonld`)));
      expect(result).toEqual({ ok: false, message: expect.stringMatching(/^LinkedData validation failed: .*no-context\.jsonld answered HTTP 404/) });
    });

    it('when the vocabulary is unreachable or unreadable, then the transient vocabulary message is given', async () => {
      const unreachable = await preparer.prepare(linkedData('/no-vocabulary.ttl', studyData(`${server.base}/context.jsonld`)));
      expect(unreachable).toEqual({ ok: false, message: `${VOCABULARY_UNAVAILABLE}${server.base}/no-vocabulary.ttl answered HTTP 404` });
      const broken = await preparer.prepare(linkedData('/vocabulary-broken.ttl', studyData(`${server.base}/context.jsonld`)));
      expect(broken).toEqual({ ok: false, message: expect.stringMatching(/^Could not fetch or parse the vocabulary .* could not be read as text\/turtle: /) });
      const guarded = makePreparer(createOutboundHttpClient({ allowlist: [], maxBytes: MAX_BYTES, timeoutMs: 5000 }));
      expect(await guarded.prepare(linkedData('/vocabulary.ttl', studyData(`${server.base}/context.jsonld`)))).toEqual({ ok: false, message: expect.stringMatching(/^Could not fetch or parse the vocabulary .*127\.0\.0\.1 may not be reached$/) });
    });

    it('when many enhancements name one vocabulary and context, then each is fetched once until the TTL passes', async () => {
      const fresh = makePreparer();
      const before = { vocabulary: server.hits.get('/vocabulary.jsonld') ?? 0, context: server.hits.get('/context.jsonld') ?? 0 };
      const items = Array.from({ length: 20 }, () => ({ content: linkedData('/vocabulary.jsonld', studyData(`${server.base}/context.jsonld`)) }));
      const prepared = await fresh.prepareAll(items);
      expect(prepared.messages).toEqual([]);
      expect(prepared.enhancements).toHaveLength(20);
      expect(server.hits.get('/vocabulary.jsonld')).toBe(before.vocabulary + 1);
      expect(server.hits.get('/context.jsonld')).toBe(before.context + 1);
      clock += 60_001;
      await fresh.prepare(items[0].content);
      expect(server.hits.get('/vocabulary.jsonld')).toBe(before.vocabulary + 2);
    });
  });

  it('when a reference has several enhancements, then the rejected ones are left out with their messages and order is kept', async () => {
    const abstract = { source: 's', content: { enhancement_type: 'abstract', process: 'other', abstract: 'A.' } };
    const good = { source: 's', content: fullText('/paper.pdf') };
    const bad = { source: 's', content: linkedData('/vocabulary.ttl', studyData(`${server.base}/context.jsonld`, { unknownTerm: 1 })) };
    const result = await preparer.prepareAll([abstract, bad, good]);
    expect(result.enhancements.map((item) => item.content.enhancement_type)).toEqual(['abstract', 'full_text']);
    expect(result.enhancements[1].content).toMatchObject({ sha256_checksum: sha256(server.paper) });
    expect(result.messages).toEqual([expect.stringMatching(/^LinkedData validation failed: property/)]);
  });
});

/** Object keys under a prefix, via a signed-less ListObjectsV2 through the minio client. */
async function listKeys(endpoint: string, prefix: string): Promise<string[]> {
  const Minio = await import('minio');
  const url = new URL(endpoint);
  const client = new Minio.Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey: 'destiny-dev', secretKey: 'destiny-dev-secret-change-me', region: 'us-east-1', pathStyle: true });
  const keys: string[] = [];
  for await (const item of client.listObjectsV2('content-test', prefix, true)) keys.push((item as { name: string }).name);
  return keys;
}
