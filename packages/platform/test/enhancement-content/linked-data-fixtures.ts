// A small vocabulary and context for linked-data tests, in the shapes real vocabularies use.

export const VOCABULARY_NS = 'https://vocab.example.org/destiny#';

export const VOCABULARY_TURTLE = `@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix d: <${VOCABULARY_NS}> .

d:Study a owl:Class ; rdfs:label "Study" .
d:Concept a owl:Class ; rdfs:label "Concept" .
d:hasConcept a owl:ObjectProperty ; rdfs:domain d:Study ; rdfs:range d:Concept .
d:country a owl:DatatypeProperty ; rdfs:domain d:Study .
d:climate a d:Concept ; rdfs:label "Climate" .
`;

export const VOCABULARY_JSONLD = {
  '@context': { owl: 'http://www.w3.org/2002/07/owl#', rdfs: 'http://www.w3.org/2000/01/rdf-schema#', d: VOCABULARY_NS },
  '@graph': [
    { '@id': 'd:Study', '@type': 'owl:Class' },
    { '@id': 'd:Concept', '@type': 'owl:Class' },
    { '@id': 'd:hasConcept', '@type': 'owl:ObjectProperty' },
    { '@id': 'd:country', '@type': 'owl:DatatypeProperty' },
  ],
};

/** Maps the data's keys to vocabulary IRIs; `unknownTerm` maps to an IRI the vocabulary lacks. */
export const CONTEXT = {
  '@context': {
    d: VOCABULARY_NS,
    Study: 'd:Study',
    Concept: 'd:Concept',
    hasConcept: { '@id': 'd:hasConcept', '@type': '@id' },
    country: 'd:country',
    unknownTerm: 'd:notInVocabulary',
    label: 'http://www.w3.org/2000/01/rdf-schema#label',
  },
};

export function studyData(contextUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { '@context': contextUrl, '@id': 'https://data.example.org/study/1', '@type': 'Study', hasConcept: `${VOCABULARY_NS}climate`, country: 'GB', label: 'A study', ...extra };
}
