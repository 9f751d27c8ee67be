import type JsonLdModule from 'jsonld';
import type { RemoteDocument } from 'jsonld';
import type { OutboundHttpClient } from '../outbound-http/outbound-http';
import { EnhancementContentRejected } from './enhancement-content.errors';
import { createRemoteDocumentCache, type FetchedDocument } from './remote-document.cache';
import { indexVocabulary, vocabularyProblems, type RdfTriple, type VocabularyTerms } from './vocabulary-terms';

// Linked-data validation (§6.6). The data is expanded as JSON-LD with jsonld.js in safe mode (a
// key its context does not map, or a value that is not an absolute IRI where one is needed,
// fails instead of silently vanishing); every remote document, the `@context` and any context it
// imports, is loaded through our SSRF-guarded, size-limited, cached client, never jsonld's own
// network loader. The resulting graph must not be empty and must meet the vocabulary rule of
// vocabulary-terms.ts against the vocabulary at `vocabulary_uri` (JSON-LD, Turtle, N-Triples or
// N-Quads).

export interface LinkedDataContent {
  vocabulary_uri: string;
  data: Record<string, unknown>;
}

export interface LinkedDataValidator {
  /** Resolves when the content is valid; EnhancementContentRejected with the contract's wording otherwise. */
  validate(content: LinkedDataContent): Promise<void>;
}

export interface LinkedDataValidatorOptions {
  outbound: OutboundHttpClient;
  maxDocumentBytes: number;
  timeoutMs: number;
  cacheTtlMs: number;
  now?: () => number;
}

type JsonLd = typeof JsonLdModule;

const FAILURE_TTL_MS = 30_000;
const MAX_PROBLEMS_SHOWN = 5;
const CONTEXT_ACCEPT = 'application/ld+json, application/json;q=0.9';
const VOCABULARY_ACCEPT = 'application/ld+json, text/turtle;q=0.9, application/n-triples;q=0.8, application/n-quads;q=0.8, application/json;q=0.5';
const TURTLE_FAMILY: Array<[RegExp, string]> = [
  [/text\/turtle|application\/x-turtle/, 'text/turtle'],
  [/application\/n-triples/, 'application/n-triples'],
  [/application\/n-quads/, 'application/n-quads'],
  [/application\/trig/, 'application/trig'],
];

export const LINKED_DATA_INVALID = 'LinkedData validation failed: ';
export const VOCABULARY_UNAVAILABLE = 'Could not fetch or parse the vocabulary needed to validate this enhancement. This may be transient. Detail: ';

let jsonldModule: Promise<JsonLd> | undefined;
/** jsonld.js takes half a second to load, so only services that meet linked data pay for it. */
function loadJsonld(): Promise<JsonLd> {
  jsonldModule ??= import('jsonld').then((module) => (module as unknown as { default?: JsonLd }).default ?? (module as unknown as JsonLd));
  return jsonldModule;
}

function parseJson(document: FetchedDocument): unknown {
  try {
    return JSON.parse(document.body.toString('utf8'));
  } catch (error) {
    throw new Error(`${document.url} is not JSON (${(error as Error).message})`, { cause: error });
  }
}

/** A readable sentence from a jsonld.js error (its safe-mode events carry the useful detail). */
function describeJsonLdError(error: unknown): string {
  const failure = error as { message?: string; details?: { event?: { code?: string; message?: string; details?: Record<string, unknown> }; cause?: { message?: string }; url?: string } };
  const event = failure.details?.event;
  if (event) {
    const detail = event.details ?? {};
    const subject = detail.property ?? detail.object ?? detail.value ?? detail.term ?? detail.iri;
    return `${event.message ?? event.code ?? 'invalid JSON-LD'}${subject === undefined ? '' : ` (${JSON.stringify(subject)})`}`;
  }
  const cause = failure.details?.cause?.message;
  if (cause) return `${(failure.message ?? '').replace(/\. Possible causes.*$/s, '')}: ${cause}`;
  return failure.message ?? String(error);
}

export function createLinkedDataValidator(options: LinkedDataValidatorOptions): LinkedDataValidator {
  const cache = createRemoteDocumentCache({
    outbound: options.outbound,
    maxBytes: options.maxDocumentBytes,
    timeoutMs: options.timeoutMs,
    ttlMs: options.cacheTtlMs,
    failureTtlMs: FAILURE_TTL_MS,
    now: options.now,
  });

  async function documentLoader(url: string): Promise<RemoteDocument> {
    const document = await cache.load(url, CONTEXT_ACCEPT, async (fetched) => parseJson(fetched));
    // A fresh copy: jsonld.js may annotate what it is given, and the cached one is shared.
    return { contextUrl: null, documentUrl: url, document: structuredClone(document) };
  }

  async function parseVocabulary(document: FetchedDocument): Promise<VocabularyTerms> {
    const text = document.body.toString('utf8');
    const turtleFormat = TURTLE_FAMILY.find(([pattern]) => pattern.test(document.contentType))?.[1];
    if (/application\/rdf\+xml|text\/xml|application\/xml/.test(document.contentType)) {
      throw new Error(`${document.url} is RDF/XML (${document.contentType}), which cannot be read here; serve the vocabulary as JSON-LD or Turtle`);
    }
    const looksJson = /json/.test(document.contentType) || (!turtleFormat && /^\s*[[{]/.test(text));
    let triples: RdfTriple[];
    if (looksJson) {
      const jsonld = await loadJsonld();
      try {
        triples = await jsonld.toRDF(parseJson(document), { documentLoader, base: document.url });
      } catch (error) {
        throw new Error(`${document.url} could not be read as JSON-LD: ${describeJsonLdError(error)}`, { cause: error });
      }
    } else {
      const { Parser } = await import('n3');
      try {
        triples = new Parser({ baseIRI: document.url, format: turtleFormat ?? 'text/turtle' }).parse(text);
      } catch (error) {
        throw new Error(`${document.url} could not be read as ${turtleFormat ?? 'Turtle'}: ${(error as Error).message}`, { cause: error });
      }
    }
    const terms = indexVocabulary(triples);
    if (terms.size === 0) throw new Error(`${document.url} defines no terms`);
    return terms;
  }

  return {
    async validate(content) {
      let vocabulary: VocabularyTerms;
      try {
        vocabulary = await cache.load(content.vocabulary_uri, VOCABULARY_ACCEPT, parseVocabulary);
      } catch (error) {
        throw new EnhancementContentRejected(`${VOCABULARY_UNAVAILABLE}${(error as Error).message}`);
      }
      const jsonld = await loadJsonld();
      let graph: RdfTriple[];
      try {
        graph = await jsonld.toRDF(content.data, { documentLoader, safe: true });
      } catch (error) {
        throw new EnhancementContentRejected(`${LINKED_DATA_INVALID}${describeJsonLdError(error)}`);
      }
      if (graph.length === 0) throw new EnhancementContentRejected(`${LINKED_DATA_INVALID}the data expands to an empty graph, so it states nothing.`);
      const problems = vocabularyProblems(graph, vocabulary);
      if (problems.length > 0) {
        const shown = problems.slice(0, MAX_PROBLEMS_SHOWN).join('; ');
        const more = problems.length > MAX_PROBLEMS_SHOWN ? `; and ${problems.length - MAX_PROBLEMS_SHOWN} more` : '';
        throw new EnhancementContentRejected(`${LINKED_DATA_INVALID}${shown}${more} (vocabulary ${content.vocabulary_uri}).`);
      }
    },
  };
}
