import { indexVocabulary, vocabularyProblems, type RdfTriple } from './vocabulary-terms';

const NS = 'https://vocab.example.org/v#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const OWL = 'http://www.w3.org/2002/07/owl#';
const iri = (value: string) => ({ termType: 'NamedNode', value });
const literal = (value: string) => ({ termType: 'Literal', value });
const triple = (subject: string, predicate: string, object: { termType: string; value: string }): RdfTriple => ({ subject: iri(subject), predicate: iri(predicate), object });

const vocabulary = indexVocabulary([
  triple(`${NS}Study`, RDF_TYPE, iri(`${OWL}Class`)),
  triple(`${NS}title`, RDF_TYPE, iri(`${OWL}DatatypeProperty`)),
  triple(`${NS}note`, 'http://www.w3.org/2000/01/rdf-schema#comment', literal('described but untyped')),
  { subject: { termType: 'BlankNode', value: 'b0' }, predicate: iri(`${NS}ignored`), object: literal('x') },
]);

describe('vocabulary rule for linked-data graphs', () => {
  it('when the vocabulary is indexed, then its named subjects are its terms with their types', () => {
    expect([...vocabulary.keys()]).toEqual([`${NS}Study`, `${NS}title`, `${NS}note`]);
    expect([...(vocabulary.get(`${NS}Study`) ?? [])]).toEqual([`${OWL}Class`]);
  });

  it('when every property and type is defined, then there is no problem, and RDF/RDFS/OWL terms need no definition', () => {
    const graph = [
      triple('https://data.example.org/1', RDF_TYPE, iri(`${NS}Study`)),
      triple('https://data.example.org/1', `${NS}title`, literal('T')),
      triple('https://data.example.org/1', `${NS}note`, literal('N')),
      triple('https://data.example.org/1', 'http://www.w3.org/2000/01/rdf-schema#label', literal('L')),
    ];
    expect(vocabularyProblems(graph, vocabulary)).toEqual([]);
  });

  it('when a property or a type is not in the vocabulary, then each is named once', () => {
    const graph = [
      triple('https://data.example.org/1', RDF_TYPE, iri(`${NS}Trial`)),
      triple('https://data.example.org/1', `${NS}author`, literal('A')),
      triple('https://data.example.org/2', `${NS}author`, literal('B')),
    ];
    expect(vocabularyProblems(graph, vocabulary)).toEqual([`type <${NS}Trial> is not defined in the vocabulary`, `property <${NS}author> is not defined in the vocabulary`]);
  });

  it('when a class is used as a property or a property as a type, then that is a problem', () => {
    const graph = [triple('https://data.example.org/1', `${NS}Study`, literal('x')), triple('https://data.example.org/1', RDF_TYPE, iri(`${NS}title`))];
    expect(vocabularyProblems(graph, vocabulary)).toEqual([
      `<${NS}Study> is used as a property but the vocabulary defines it as a class`,
      `<${NS}title> is used as a type but the vocabulary defines it as a property`,
    ]);
  });
});
