// One work exported by two databases (MEDLINE, EMBASE, Web of Science, Scopus, CINAHL, AIS eLibrary, …):
// the records differ in the systematic ways each export writes a field. Each pair is replayed as a
// stream in both orders, blocking included, and must end as one group.

import { replayStream } from './evaluation';
import { type DedupRecord } from './record';
import { bareDedupRecord } from './record.fixture';

const exported = (fields: Partial<DedupRecord>): DedupRecord => bareDedupRecord('x', { year: 2013, ...fields });

/** Both orders of the pair: the later record must be decided a duplicate of the earlier one. */
function mergedBothWays(a: Partial<DedupRecord>, b: Partial<DedupRecord>): boolean {
  return [
    [exported(a), exported(b)],
    [exported(b), exported(a)],
  ].every(([first, second]) => replayStream([first, second]).decisions.get(second.id)?.determination === 'duplicate');
}

const medline = { authors: ['Legendre CM', 'Licht C', 'Muus P'], year: 2013, venue: 'N Engl J Med', volume: '368', issue: '23', pages: '2169-81' };
// EMBASE's record of the article before its print issue: no pages yet.
const embaseOnline = { authors: ['Legendre C.M.', 'Licht C.', 'Muus P.'], year: 2013, venue: 'New England Journal of Medicine', volume: '368', issue: '23', pages: null };

describe('one work exported by two databases', () => {
  it('when one database spells out signs the other keeps (&, vs., °, ™, ×), then the two records merge without pages on one side', () => {
    const pairs: Array<[string, string]> = [
      ['Rituximab & plasma exchange in acquired thrombotic thrombocytopenic purpura: a cohort', 'Rituximab and plasma exchange in acquired thrombotic thrombocytopenic purpura: a cohort'],
      ['Rituximab vs. plasma exchange in acquired thrombotic thrombocytopenic purpura', 'Rituximab versus plasma exchange in acquired thrombotic thrombocytopenic purpura'],
      ['Cooling to 33 °C after out-of-hospital cardiac arrest in adults', 'Cooling to 33 degrees C after out-of-hospital cardiac arrest in adults'],
      ['Rivaroxaban (Xarelto™) in atrial fibrillation with renal impairment', 'Rivaroxaban (Xarelto) in atrial fibrillation with renal impairment'],
      ['A 2 × 2 factorial trial of aspirin and heparin in acute stroke', 'A 2 x 2 factorial trial of aspirin and heparin in acute stroke'],
    ];
    for (const [withSign, spelled] of pairs) {
      expect({ withSign, merged: mergedBothWays({ ...medline, title: withSign }, { ...embaseOnline, title: spelled }) }).toEqual({ withSign, merged: true });
    }
  });
});

describe('issue numbers written differently', () => {
  // A title of four content words needs the printed place, so the issue is what decides.
  const short = { title: 'Eculizumab for atypical HUS', authors: ['Legendre CM', 'Licht C'], venue: 'Pediatr Nephrol', volume: '28', pages: '215-20' };

  it('when one export pads the issue with a zero ("03") or writes a double issue whole ("3-4", "3/4") and another by one number, then the records merge', () => {
    for (const [a, b] of [['03', '3'], ['3-4', '3'], ['3-4', '4'], ['3/4', '3'], ['Suppl 01', 'Suppl. 1']]) {
      expect({ a, b, merged: mergedBothWays({ ...short, issue: a }, { ...short, issue: b, venue: 'Pediatric Nephrology', pages: '215-220' }) }).toEqual({ a, b, merged: true });
    }
  });

  it('when a double issue and a plain issue share no number, then a title printed in every issue stays apart; sharing one, it merges', () => {
    const column = { title: 'Message from the Editor-in-Chief', authors: ['Rai, A.'], venue: 'MIS Quarterly', volume: '40' };
    expect(mergedBothWays({ ...column, issue: '3-4' }, { ...column, issue: '5' })).toBe(false);
    expect(mergedBothWays({ ...column, issue: '3-4' }, { ...column, issue: '3' })).toBe(true);
  });
});

describe('journal names written differently', () => {
  it('when a short title is printed in a journal one export names by its parallel (translated) name, then the records merge', () => {
    const japanese = { title: 'Pleuritis carcinomatosa', year: 2011, volume: '38', issue: '4', pages: '524-527' };
    expect(
      mergedBothWays(
        { ...japanese, authors: ['Miyanaga, A.', 'Gemma, A.'], venue: 'Japanese Journal of Cancer and Chemotherapy' },
        { ...japanese, authors: ['Miyanaga, Akihiko', 'Gemma, Akihiko'], venue: 'Gan to Kagaku Ryoho [Japanese Journal of Cancer & Chemotherapy]' },
      ),
    ).toBe(true);
    const dutch = { title: 'Editorial', authors: ['Bakker, J.'], year: 2012, volume: '156', issue: '12', pages: 'A4567' };
    expect(mergedBothWays({ ...dutch, venue: 'Ned Tijdschr Geneeskd' }, { ...dutch, venue: 'Nederlands Tijdschrift voor Geneeskunde' })).toBe(true);
  });
});

describe('words split and joined differently', () => {
  it('when MEDLINE writes a superscript in parentheses ("p16(INK4a)") where another database runs it on ("p16INK4a"), then blocking still brings the records together', () => {
    const pairs: Array<[string, string]> = [
      ['Serum p16(INK4a) levels in cervical screening', 'Serum p16INK4a levels in cervical screening'],
      ['Stroke care during COVID-19 lockdown in Italy', 'Stroke care during COVID19 lockdown in Italy'],
      ['Caregiver well-being after stroke rehabilitation discharge', 'Caregiver wellbeing after stroke rehabilitation discharge'],
    ];
    for (const [split, joined] of pairs) {
      expect({ split, merged: mergedBothWays({ ...medline, title: split }, { ...embaseOnline, title: joined }) }).toEqual({ split, merged: true });
    }
  });
});

describe('author names written differently', () => {
  it('when Ovid EMBASE writes "Surname I.I." and another database "Surname, Given I.", then a single-author paper still merges', () => {
    const paper = { title: 'Task-technology fit and individual performance in information systems use', year: 1995, venue: 'MIS Quarterly', volume: '19', issue: '2' };
    expect(mergedBothWays({ ...paper, authors: ['Goodhue, Dale L.'], pages: '213-236' }, { ...paper, authors: ['Goodhue D.L.'] })).toBe(true);
    expect(mergedBothWays({ ...paper, authors: ['Goodhue, Dale L.'], pages: '213-236' }, { ...paper, authors: ['Goodhue D. L.'] })).toBe(true);
  });
});

describe('roman front-matter pages', () => {
  const editorial = { title: 'Editorial', authors: ['Galliers, Bob', 'Jarvenpaa, Sirkka'], year: 2001, venue: 'The Journal of Strategic Information Systems', volume: '10' };

  it('when two exports give one issue\'s editorial on roman pages ("iii--iv", "III-IV"), then they merge', () => {
    expect(mergedBothWays({ ...editorial, issue: '2', pages: 'iii--iv' }, { ...editorial, authors: ['Galliers B.', 'Jarvenpaa S.'], venue: 'J Strateg Inf Syst', issue: '2', pages: 'III-IV' })).toBe(true);
  });

  it('when editorials on the same roman pages sit in different issues, or one record lacks its issue, then they stay apart (every issue starts its front matter anew)', () => {
    expect(mergedBothWays({ ...editorial, issue: '2', pages: 'iii--iv' }, { ...editorial, issue: '3', pages: 'iii--iv' })).toBe(false);
    expect(mergedBothWays({ ...editorial, issue: '2', pages: 'iii--iv' }, { ...editorial, issue: null, pages: 'iii--iv' })).toBe(false);
    const column = { ...editorial, title: "Editor's comments: next-generation information systems research agenda" };
    expect(mergedBothWays({ ...column, issue: '2', pages: 'iii-xii' }, { ...column, issue: '3', pages: 'iii-xii' })).toBe(false);
  });
});

describe('original-language titles appended', () => {
  it('when one export appends the original-language title after "<ORIGINAL>" (whole or cut off), then it compares as the English title alone', () => {
    const abstract = { authors: ['Sampere, C. T.', 'Guasch, J. A.'], year: 1976, venue: 'Rev Argent Cardiol' };
    const english = 'Definitive cardiac stimulation. A comparative study between transvenous and transmediastinal approach';
    for (const appended of [`${english}. <ORIGINAL> LA ESTIMULACION CARDIACA DEFINITIVA. LOS RESULTADOS OBTENIDOS`, `${english} <OR`]) {
      expect({ appended, merged: mergedBothWays({ ...abstract, title: english }, { ...abstract, title: appended }) }).toEqual({ appended, merged: true });
    }
  });
});

describe('page counts after the range', () => {
  it('when CINAHL appends the page count ("123-129. 7p"), then the range still identifies a reworded title', () => {
    const article = { authors: ['Kwakkel, G.', 'Kollen, B. J.'], year: 2013, venue: 'Stroke', volume: '44', issue: '2' };
    expect(
      mergedBothWays(
        { ...article, title: 'Predicting upper limb recovery after stroke: the EPOS cohort study', pages: '523-529' },
        { ...article, title: 'Predicting upper limb recovery after stroke: the early prediction of functional outcome after stroke (EPOS) cohort', pages: '523-529. 7p.' },
      ),
    ).toBe(true);
  });
});

describe('conference names', () => {
  it('when AIS eLibrary names the proceedings by acronym and year and Scopus by the full name with the acronym, then a paper without pages merges', () => {
    const paper = { title: 'Algorithmic management and worker autonomy in gig economy platforms', year: 2017 };
    expect(
      mergedBothWays(
        { ...paper, authors: ['Möhlmann, Mareike', 'Zalmanson, Lior'], venue: 'ICIS 2017 Proceedings' },
        { ...paper, authors: ['Möhlmann M.', 'Zalmanson L.'], venue: '38th International Conference on Information Systems: Transforming Society with Digital Innovation, ICIS 2017', pages: '1-17' },
      ),
    ).toBe(true);
  });
});

describe('placeholders for a missing author', () => {
  it('when one export writes "Anonymous", "[No authors listed]" or "No authorship, indicated" where another has no author, then the records merge', () => {
    const editorial = { title: 'Global burden of stroke in low-income countries: time to act', year: 2012, venue: 'Lancet', volume: '380', issue: '9850' };
    for (const [a, b] of [[['Anonymous'], ['Anon.']], [['Anonymous'], ['[No authors listed]']], [['indicated, No authorship'], []]]) {
      expect({ a, b, merged: mergedBothWays({ ...editorial, authors: a, pages: '1' }, { ...editorial, authors: b }) }).toEqual({ a, b, merged: true });
    }
  });

  it('when a correction notice without authors sits on the article\'s last page, then it stays apart from the article', () => {
    const article = { title: 'Rainmakers: Why bad weather means good productivity', authors: ['Lee, J. J.', 'Gino, F.', 'Staats, B. R.'], year: 2014, venue: 'Journal of Applied Psychology', volume: '99', issue: '3', pages: '504-513' };
    const notice = { ...article, title: '"Rainmakers: Why bad weather means good productivity\u201d: Correction to Lee et al. (2014).', authors: ['No authorship, indicated'], pages: '513' };
    expect(mergedBothWays(article, notice)).toBe(false);
  });
});

describe('records not yet printed', () => {
  it('when an online-first export writes "[Epub ahead of print]" in the volume field, then it is no volume and the record merges with the printed one', () => {
    const article = { title: 'Therapeutic plasma exchange for the treatment of pediatric renal diseases in 2013', authors: ['Carter, C. E.', 'Benador, N. M.'], year: 2013, venue: 'Pediatr Nephrol' };
    expect(mergedBothWays({ ...article, volume: '[Epub ahead of print]' }, { ...article, venue: 'Pediatric Nephrology', volume: '29', issue: '1', pages: '35-50', year: 2014 })).toBe(true);
  });
});
