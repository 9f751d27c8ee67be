// The rule a linked-data graph must meet against its vocabulary (§6.6; we have no SHACL shapes,
// so the fetched vocabulary is the whole ontology):
//  - every property IRI the graph uses, and every IRI it names as an rdf:type, is described in
//    the vocabulary (is the subject of at least one of its triples);
//  - a term the vocabulary types only as a class is not used as a property, and one it types only
//    as a property is not used as a type.
// Terms of the languages vocabularies are written in (RDF, RDFS, OWL, XSD) need no definition.

export interface RdfTerm {
  termType: string;
  value: string;
}

export interface RdfTriple {
  subject: RdfTerm;
  predicate: RdfTerm;
  object: RdfTerm;
}

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
const OWL = 'http://www.w3.org/2002/07/owl#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_TYPE = `${RDF}type`;
const BUILT_IN_NAMESPACES = [RDF, RDFS, OWL, XSD];

const CLASS_TYPES = new Set([`${RDFS}Class`, `${OWL}Class`, `${RDFS}Datatype`]);
const PROPERTY_TYPES = new Set([
  `${RDF}Property`,
  `${OWL}ObjectProperty`,
  `${OWL}DatatypeProperty`,
  `${OWL}AnnotationProperty`,
  `${OWL}FunctionalProperty`,
  `${OWL}InverseFunctionalProperty`,
  `${OWL}TransitiveProperty`,
  `${OWL}SymmetricProperty`,
  `${OWL}AsymmetricProperty`,
  `${OWL}ReflexiveProperty`,
  `${OWL}IrreflexiveProperty`,
]);

/** The terms a vocabulary describes, each with the types it gives them. */
export type VocabularyTerms = ReadonlyMap<string, ReadonlySet<string>>;

export function indexVocabulary(triples: Iterable<RdfTriple>): VocabularyTerms {
  const terms = new Map<string, Set<string>>();
  for (const triple of triples) {
    if (triple.subject.termType !== 'NamedNode') continue;
    let types = terms.get(triple.subject.value);
    if (!types) terms.set(triple.subject.value, (types = new Set()));
    if (triple.predicate.value === RDF_TYPE && triple.object.termType === 'NamedNode') types.add(triple.object.value);
  }
  return terms;
}

const isBuiltIn = (iri: string) => BUILT_IN_NAMESPACES.some((namespace) => iri.startsWith(namespace));
const onlyOf = (types: ReadonlySet<string>, kinds: ReadonlySet<string>) => types.size > 0 && [...types].every((type) => kinds.has(type));

/** What is wrong with the graph's use of the vocabulary, one sentence per problem (empty: none). */
export function vocabularyProblems(graph: readonly RdfTriple[], vocabulary: VocabularyTerms): string[] {
  const problems = new Map<string, string>();
  const check = (iri: string, role: 'property' | 'type') => {
    if (isBuiltIn(iri) || problems.has(`${role} ${iri}`)) return;
    const types = vocabulary.get(iri);
    if (!types) problems.set(`${role} ${iri}`, `${role} <${iri}> is not defined in the vocabulary`);
    else if (role === 'property' && onlyOf(types, CLASS_TYPES)) problems.set(`${role} ${iri}`, `<${iri}> is used as a property but the vocabulary defines it as a class`);
    else if (role === 'type' && onlyOf(types, PROPERTY_TYPES)) problems.set(`${role} ${iri}`, `<${iri}> is used as a type but the vocabulary defines it as a property`);
  };
  for (const triple of graph) {
    check(triple.predicate.value, 'property');
    if (triple.predicate.value === RDF_TYPE && triple.object.termType === 'NamedNode') check(triple.object.value, 'type');
  }
  return [...problems.values()];
}
