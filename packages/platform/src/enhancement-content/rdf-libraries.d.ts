// The small parts of jsonld and n3 this module uses (neither ships type declarations).

declare module 'jsonld' {
  export interface RemoteDocument {
    contextUrl: string | null;
    documentUrl: string;
    document: unknown;
  }
  export interface RdfTerm {
    termType: string;
    value: string;
  }
  export interface RdfQuad {
    subject: RdfTerm;
    predicate: RdfTerm;
    object: RdfTerm;
  }
  export interface Options {
    documentLoader?: (url: string) => Promise<RemoteDocument>;
    safe?: boolean;
    base?: string;
  }
  const jsonld: { toRDF(input: unknown, options?: Options): Promise<RdfQuad[]> };
  export default jsonld;
}

declare module 'n3' {
  export interface N3Term {
    termType: string;
    value: string;
  }
  export interface N3Quad {
    subject: N3Term;
    predicate: N3Term;
    object: N3Term;
  }
  export class Parser {
    constructor(options?: { baseIRI?: string; format?: string });
    parse(input: string): N3Quad[];
  }
}
