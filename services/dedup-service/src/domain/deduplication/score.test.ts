import { type DedupRecord } from './record';
import { dedupRecord } from './record.fixture';
import { scorePair } from './score';

const record = dedupRecord;

function verdict(a: Partial<DedupRecord>, b: Partial<DedupRecord>): string {
  return scorePair(record(a), record(b)).verdict;
}

describe('scorePair vetoes', () => {
  it('when two records carry different DOIs, then they are distinct however alike the rest', () => {
    const result = scorePair(record({ doi: '10.1000/a1' }), record({ doi: '10.1000/b2' }));
    expect(result.verdict).toBe('distinct');
    expect(result.reasons[0]).toMatch(/different doi/);
  });

  it('when two records carry different PubMed ids, then they are distinct', () => {
    expect(verdict({ identifiers: [{ type: 'pm_id', value: '1', name: null }] }, { identifiers: [{ type: 'pm_id', value: '2', name: null }] })).toBe('distinct');
  });

  it('when only "other" identifiers differ (each source numbers its own records), then that is no conflict', () => {
    expect(verdict({ identifiers: [{ type: 'other', value: 'a', name: 'benchmark_record_id' }] }, { identifiers: [{ type: 'other', value: 'b', name: 'benchmark_record_id' }] })).toBe('duplicate');
  });

  it('when one is an erratum, retraction or comment of the other, then they are distinct', () => {
    const original = 'Eculizumab for atypical hemolytic-uremic syndrome in adults';
    for (const title of [`Erratum: ${original}`, `${original} (vol 360, pg 542, 2009)`, `Retraction notice to: ${original}`, `Comment on: ${original}`, `${original} - Reply`]) {
      expect({ title, verdict: verdict({ title: original }, { title }) }).toEqual({ title, verdict: 'distinct' });
    }
  });

  it('when two errata of the same article agree on journal and pages, then they are duplicates of each other', () => {
    expect(verdict({ title: 'Erratum: Severe deficiency of ADAMTS 13 in a sub-group of children with aHUS (J Pediatr (M', pages: '616' }, { title: 'Severe deficiency of ADAMTS 13 in a subgroup of children with aHUS (vol 142, pg 310, 2003)', pages: '616-616' })).toBe('duplicate');
  });

  it('when titles name different parts of a multi-part paper, then they are distinct', () => {
    expect(verdict({ title: 'Complement in kidney disease. Part I: genetics and pathways' }, { title: 'Complement in kidney disease. Part II: genetics and pathways' })).toBe('distinct');
  });

  it('when publication years are two or more apart, then they are distinct; one year apart is tolerated', () => {
    expect(verdict({ year: 2009 }, { year: 2011 })).toBe('distinct');
    expect(verdict({ year: 2010 }, { year: 2011 })).toBe('duplicate');
  });

  it('when volumes differ (and the rest does not show an export error, see below), then they are distinct', () => {
    const result = scorePair(record({ volume: '7', year: 2011 }), record({ volume: '8', year: 2012 }));
    expect(result.verdict).toBe('distinct');
    expect(result.reasons[0]).toMatch(/different volumes/);
  });

  it('when author lists share neither the first author nor half of the names (and the rest does not show an export error, see below), then they are distinct', () => {
    const result = scorePair(record({ authors: ['Smith, A.', 'Jones, B.'], issue: '1' }), record({ authors: ['Brown, C.', 'Green, D.'], issue: '2' }));
    expect(result.verdict).toBe('distinct');
    expect(result.reasons[0]).toMatch(/authors do not match/);
  });
});

describe('scorePair with a field an export garbled', () => {
  // A meeting abstract as two databases export it: one put the supplement's number in the volume.
  const abstract = { title: 'Saxagliptin improves cardiac function in the post MI diabetes setting via stromal derived factor 1', volume: '29', issue: 'SUPPL. 1', pages: 'S200-S201', authors: ['Connelly, K. A.', 'Zhang, Y.'], year: 2013, venue: 'Canadian Journal of Cardiology' };

  it('when the same long title by the same authors starts on the same page of the same journal and year, then a differing volume is an export error', () => {
    expect(verdict(abstract, { ...abstract, volume: '1)', issue: null })).toBe('duplicate');
    expect(verdict(abstract, { ...abstract, volume: '1', issue: null, pages: 'S200' })).toBe('duplicate');
  });

  it('when anything else beside the volume differs or is missing (page, year, title, authors), then the volumes still keep them apart', () => {
    expect(verdict(abstract, { ...abstract, volume: '1', pages: 'S202' })).toBe('distinct');
    expect(verdict(abstract, { ...abstract, volume: '1', pages: null })).toBe('distinct');
    expect(verdict(abstract, { ...abstract, volume: '30', year: 2014 })).toBe('distinct');
    expect(verdict(abstract, { ...abstract, volume: '1', title: 'Saxagliptin improves cardiac function in the post MI setting via stromal derived factor 1' })).toBe('distinct');
    expect(verdict(abstract, { ...abstract, volume: '1', authors: ['Smith, B.', 'Connelly, K. A.'] })).toBe('distinct');
    expect(verdict({ ...abstract, title: 'Editorial' }, { ...abstract, title: 'Editorial', volume: '1' })).toBe('distinct');
  });

  it('when a long identical title fills the same page range of the same journal issue, then an author list that matches nothing is an export error', () => {
    const article = { title: 'Dipeptidyl peptidase-4 inhibitor sitagliptin protects vascular function in metabolic syndrome', venue: 'Mol Biol Rep', volume: '41', issue: '8', pages: '4853-4863', authors: ['Cicek, F. A.', 'Tokcaer-Keskin, Z.'] };
    expect(verdict(article, { ...article, pages: '4853-63', authors: ['Amber, C. F.', 'Zeynep, T. K.'] })).toBe('duplicate');
  });

  it('when authors match nothing and the place is only a single page, another issue, or a shorter title, then they stay distinct', () => {
    const article = { title: 'Dipeptidyl peptidase-4 inhibitor sitagliptin protects vascular function in metabolic syndrome', venue: 'Mol Biol Rep', volume: '41', issue: '8', pages: '4853-4863', authors: ['Cicek, F. A.', 'Tokcaer-Keskin, Z.'] };
    const otherAuthors = ['Amber, C. F.', 'Zeynep, T. K.'];
    expect(verdict({ ...article, pages: '4853' }, { ...article, pages: '4853', authors: otherAuthors })).toBe('distinct');
    expect(verdict(article, { ...article, issue: '9', authors: otherAuthors })).toBe('distinct');
    expect(verdict({ ...article, title: 'Sitagliptin in metabolic syndrome' }, { ...article, title: 'Sitagliptin in metabolic syndrome', authors: otherAuthors })).toBe('distinct');
  });
});

describe('scorePair rule ID', () => {
  it('when both share a DOI and nothing conflicts, then they are duplicates even with differing titles', () => {
    expect(verdict({ doi: '10.1000/X1', title: 'A study of complement' }, { doi: '10.1000/x1', title: 'Completely different wording of it' })).toBe('duplicate');
  });
});

describe('scorePair rule A (same title)', () => {
  it('when titles differ only in case, punctuation, annotations and spelling, and authors and locator agree, then duplicate', () => {
    expect(verdict({ title: 'Complement factor H mutations in atypical haemolytic uraemic syndrome: a cohort study. [Review] [45 refs]' }, { title: 'COMPLEMENT FACTOR H MUTATIONS IN ATYPICAL HEMOLYTIC-UREMIC SYNDROME - A COHORT STUDY' })).toBe('duplicate');
  });

  it('when one record lacks pages, volume and issue (a conference listing), then the same title and authors suffice', () => {
    expect(verdict({}, { volume: null, issue: null, pages: null, venue: 'Nat Rev Nephrol.Conference: Annual meeting' })).toBe('duplicate');
  });

  it('when the title has a typo, then duplicate only with the locator agreeing', () => {
    expect(verdict({ title: 'Paroxysmal nocturnal hemoglobinuria and thrombosis in adult patients' }, { title: 'Paroxsmal nocturnal hemoglobinuria and thrombosis in adult patients' })).toBe('duplicate');
    expect(
      verdict(
        { title: 'Paroxysmal nocturnal hemoglobinuria and thrombosis in adult patients', venue: null, volume: null, issue: null, pages: null },
        { title: 'Paroxsmal nocturnal hemoglobinuria and thrombosis in adult patients', venue: null, volume: null, issue: null, pages: null },
      ),
    ).not.toBe('duplicate');
  });

  it('when one title is the other cut short by an export, then duplicate with the locator agreeing', () => {
    expect(verdict({ title: 'Inherited complement regulatory protein deficiency predisposes to human disease in acute injury and chronic inflammatory states' }, { title: 'Inherited complement regulatory protein deficiency predisposes to human disease in acute injury and chronic inflammatory statesthe examples of vascular damage' })).toBe('duplicate');
  });

  it('when a title has only three or four content words, then the same title and authors need a confirming locator', () => {
    const bare = { title: 'Atypical hemolytic uremic syndrome', venue: null, volume: null, issue: null, pages: null };
    expect(verdict(bare, { ...bare, year: 2010 })).not.toBe('duplicate');
    expect(verdict({ title: 'Atypical hemolytic uremic syndrome' }, { title: 'Atypical hemolytic-uremic syndrome.' })).toBe('duplicate');
  });

  it('when a short title by the same authors appears in one venue in one year, then a listing without pages is that item', () => {
    const paper = { title: 'Role of communication in online platforms', authors: ['Hong, Yili', 'Peng, Jing', 'Burtch, Gordon'], year: 2018, venue: 'Americas Conference on Information Systems', volume: null, issue: null, pages: '1-10' };
    const listing = { ...paper, venue: 'Americas Conference on Information Systems : Digital Disruption, AMCIS', pages: null };
    expect(verdict(paper, listing)).toBe('duplicate');
    const review = { title: 'Corticosteroids for tuberculous pleurisy', authors: ['Engel, M. E.', 'Matchaba, P. T.', 'Volmink, J.'], year: 2007, venue: 'Cochrane Database of Systematic Reviews', volume: null, issue: '346', pages: 'CD001876' };
    expect(verdict(review, { ...review, issue: '347', pages: null })).toBe('duplicate');
    // Limits: another year, another venue, or only some of the authors still need the printed place.
    expect(verdict(paper, { ...listing, year: 2019 })).not.toBe('duplicate');
    expect(verdict(paper, { ...listing, venue: 'Information Systems Research' })).not.toBe('duplicate');
    expect(verdict(paper, { ...listing, authors: ['Hong, Yili', 'Zheng, Alvin', 'Smith, Jane'] })).not.toBe('duplicate');
  });

  it('when a conference is named by its full name on one record and by its acronym on the other, then the same long title and authors are one paper', () => {
    const paper = { title: 'Call for bids to improve matching efficiency: evidence from online labor markets', authors: ['Guo, Xue', 'Gong, Jing', 'Pavlou, Paul A.'], year: 2017, venue: 'International Conference on Information Systems', volume: null, issue: null, pages: '1-12' };
    expect(verdict(paper, { ...paper, year: 2018, venue: 'ICIS : Transforming Society with Digital Innovation', pages: null })).toBe('duplicate');
    expect(verdict(paper, { ...paper, year: 2018, venue: 'ECIS : Transforming Society with Digital Innovation', pages: null })).not.toBe('duplicate');
  });

  it('when only co-authors match (first authors differ) and nothing printed agrees, then not duplicate', () => {
    const bare = { venue: null, volume: null, issue: null, pages: null };
    expect(verdict({ ...bare, authors: ['Melgar, A.', 'Melgosa, M.', 'Alonso, A.'] }, { ...bare, authors: ['Alonso, A.', 'Melgosa, M.', 'Melgar, A.'] })).not.toBe('duplicate');
  });

  it('when page ranges are written differently ("1844-59", "c37-c42"), then they agree', () => {
    expect(verdict({ pages: '1844-1859' }, { pages: '1844-59' })).toBe('duplicate');
    expect(verdict({ pages: 'c37-c42' }, { pages: '37-42' })).toBe('duplicate');
  });

  it('when first pages conflict and no other rule applies, then not a duplicate', () => {
    expect(verdict({ pages: '23-35', issue: '1' }, { pages: '40-45', issue: '1', title: 'Complement factor H mutations in atypical haemolytic uraemic syndrome: a cohort' })).not.toBe('duplicate');
  });

  it('when the journal names differ but volume agrees, then the name difference does not block', () => {
    expect(verdict({ venue: 'Journal of Thrombosis and Haemostasis', pages: null }, { venue: '23rd Congress of the International Society on Thrombosis', pages: null })).toBe('duplicate');
  });

  it('when same title and authors appear in different journals with no volume to compare, then uncertain (abstract and article?)', () => {
    expect(verdict({ venue: 'Pediatric Nephrology', volume: null, pages: '1662' }, { venue: 'Molecular Immunology', volume: null, pages: '1684' })).toBe('uncertain');
  });
});

describe('scorePair rule B (same long title in the same journal volume, pages differ)', () => {
  it('when a single-page abstract precedes the full paper in the same volume, then duplicate', () => {
    expect(verdict({ pages: '1875', issue: '9', volume: '25' }, { pages: '2539-2542', issue: '12', volume: '25' })).toBe('duplicate');
  });

  it('when a single page follows the article in the same volume (erratum notice under the original title), then not duplicate', () => {
    expect(verdict({ pages: '703-712', issue: '5', volume: '14' }, { pages: '1107', issue: '8', volume: '14' })).not.toBe('duplicate');
  });

  it('when the title is short (a recurring column), then pages must agree', () => {
    expect(verdict({ title: 'Gateways to clinical trials', pages: '185-206', issue: '3' }, { title: 'Gateways to clinical trials', pages: '467-509', issue: '7' })).not.toBe('duplicate');
  });

  it('when the first authors differ, then not duplicate even with many shared co-authors', () => {
    expect(verdict({ authors: ['Melgar, A.', 'Melgosa, M.', 'Alonso, A.'], pages: '1355-1356' }, { authors: ['Alonso, A.', 'Melgosa, M.', 'Melgar, A.'], pages: '1598' })).not.toBe('duplicate');
  });
});

describe('scorePair rule C (reworded or translated title)', () => {
  it('when titles are worded differently but journal, volume, full page range and first author agree, then duplicate', () => {
    expect(
      verdict(
        { title: 'Indications and contraindications for living kidney donations', authors: ['Andres, A.'], venue: 'Nefrologia', volume: '30', issue: 'SUPPL', pages: '30-38' },
        { title: '[Indications and contraindications of living-donor kidney transplantation]. [Spanish]', authors: ['Andres, A.'], venue: 'Nefrologia', volume: '30', issue: 'Suppl 2', pages: '30-38' },
      ),
    ).toBe('duplicate');
  });

  it('when the issue fields disagree (an export\'s record numbers), then the full page range in the volume still confirms', () => {
    const reworded = { title: 'Randomized phase II study of carboplatin and gemcitabine in advanced lung cancer', authors: ['Thomas, P.'], venue: 'Lung Cancer', volume: '51', pages: '105-114' };
    expect(verdict({ ...reworded, issue: '1531' }, { ...reworded, title: 'Randomized multicentric phase II study of carboplatin/gemcitabine in advanced non-small cell lung cancer', issue: '1533' })).toBe('duplicate');
  });

  it('when both give different plain issue numbers (a journal paginating each issue anew), then the page range does not confirm', () => {
    const reworded = { title: 'Introduction to the special issue on digital platforms and their ecosystems', authors: ['Zwass, V.'], venue: 'Journal of Management Information Systems', volume: '17', pages: '3-8' };
    expect(verdict({ ...reworded, issue: '2' }, { ...reworded, title: 'Introduction to the special issue on digital innovation and its ecosystems', issue: '4' })).not.toBe('duplicate');
    expect(verdict({ ...reworded, issue: '2' }, { ...reworded, title: 'Introduction to the special issue on digital innovation and its ecosystems', issue: '2' })).toBe('duplicate');
  });

  it('when a generic title sits on the same pages and the issue fields are an export\'s record numbers, then the place still confirms', () => {
    const editorial = { title: 'Intrapleural therapy', authors: ['Huggins, J. T.'], venue: 'Respirology', volume: '16', pages: '891-899' };
    expect(verdict({ ...editorial, issue: '825' }, { ...editorial, issue: '826' })).toBe('duplicate');
  });

  it('when a generic title sits on page 1 of an issue and on page S1 of a supplement of the same volume, then they are different items', () => {
    const editorial = { title: 'Editorial', authors: ['Smith, J.'], venue: 'Journal of Affective Disorders', volume: '30' };
    expect(verdict({ ...editorial, issue: '2', pages: '1' }, { ...editorial, issue: 'S2', pages: 'S1' })).not.toBe('duplicate');
    expect(verdict({ ...editorial, issue: 'S2', pages: 'S1' }, { ...editorial, issue: 'Suppl 2', pages: 'S1' })).toBe('duplicate');
  });

  it('when a generic title sits on the same pages of different issues of one volume, then they are different items', () => {
    const editorial = { title: 'Editorial Introduction', authors: ['Zwass, Vladimir'], venue: 'Journal of Management Information Systems', volume: '17', pages: '3-4' };
    expect(verdict({ ...editorial, issue: '2', year: 2000 }, { ...editorial, issue: '4', year: 2001 })).not.toBe('duplicate');
  });

  it('when a reworded title appears in one conference\'s proceedings of one year over the same page range, then duplicate without a volume', () => {
    const paper = { title: 'Moral hazards and effects of IT-enabled monitoring systems in online labor markets', authors: ['Liang, Chen', 'Hong, Yili'], year: 2017, venue: 'Hawaii International Conference on System Sciences', volume: null, issue: null, pages: '44-53' };
    const reworded = { ...paper, title: 'Moral hazards and effects of enhanced monitoring systems in online labor markets', venue: '50th Annual Hawaii International Conference on System Sciences' };
    expect(verdict(paper, reworded)).toBe('duplicate');
    expect(verdict(paper, { ...reworded, year: 2018 })).not.toBe('duplicate');
    expect(verdict(paper, { ...reworded, pages: '44-52' })).not.toBe('duplicate');
    expect(verdict({ ...paper, venue: 'Journal of Management Information Systems' }, { ...reworded, venue: 'Journal of Management Information Systems' })).not.toBe('duplicate');
  });

  it('when a title shares no words (a translation) but journal, volume, issue, page range and authors all agree, then duplicate', () => {
    const english = { title: 'Platform economy and crowdworking as challenges for the German model of industrial relations', authors: ['Greef, S.', 'Schroeder, W.', 'Sperling, H. J.'], venue: 'Industrielle Beziehungen', volume: '27', issue: '2', pages: '205-226' };
    const german = { ...english, title: 'Plattformokonomie und Crowdworking als Herausforderungen fur das deutsche Modell der Arbeitsbeziehungen', authors: ['Greef, Samuel', 'Schroeder, Wolfgang', 'Sperling, Hans Joachim'] };
    expect(verdict(english, german)).toBe('duplicate');
    expect(verdict(english, { ...german, issue: null })).not.toBe('duplicate');
    expect(verdict(english, { ...german, pages: '205' })).not.toBe('duplicate');
    expect(verdict(english, { ...german, authors: ['Greef, Samuel', 'Muller, A.', 'Weber, B.'] })).not.toBe('duplicate');
  });

  it('when a reworded title agrees on journal and volume but the pages are a single shared page, then not duplicate', () => {
    expect(verdict({ title: 'Complement factor H and aHUS outcomes in children', pages: '945' }, { title: 'Complement factor H and aHUS outcomes: reply to children', pages: '945' })).not.toBe('duplicate');
  });
});

describe('scorePair with different issues of one volume', () => {
  // A column printed in every issue under one title by one author.
  const column = { title: 'Remarks from MIS Quarterly Editor - Editor\'s Comments', authors: ['Lee, Allen S.'], year: 2000, venue: 'MIS Quarterly', volume: '24', pages: null };

  it('when neither record has pages and the issues differ, then they are different items', () => {
    expect(verdict({ ...column, issue: '1' }, { ...column, issue: '2' })).not.toBe('duplicate');
    expect(verdict({ ...column, issue: '1' }, { ...column, issue: '1' })).toBe('duplicate');
  });

  it('when one record has pages, or the issues are not plain issue numbers, then a differing issue field does not keep them apart', () => {
    expect(verdict({ ...column, issue: '656', pages: '47' }, { ...column, issue: '657' })).toBe('duplicate');
    expect(verdict({ ...column, issue: 'S2' }, { ...column, issue: '2' })).toBe('duplicate');
    expect(verdict({ ...column, issue: '1704' }, { ...column, issue: '8' })).toBe('duplicate');
  });
});

describe('scorePair rule D (generic and short titles)', () => {
  it('when two "Editorial" records come from different journals, then distinct', () => {
    expect(verdict({ title: 'Editorial', authors: [], venue: 'Blood', volume: '112', pages: '1' }, { title: 'Editorial', authors: [], venue: 'Lancet', volume: '112', pages: '1' })).toBe('distinct');
  });

  it('when two "Editorial" records share journal, volume and page, then duplicate', () => {
    expect(verdict({ title: 'Editorial.', authors: [], venue: 'Blood', volume: '112', pages: '1-2' }, { title: 'EDITORIAL', authors: [], venue: 'Blood', volume: '112', pages: '1-2' })).toBe('duplicate');
  });

  it('when a short title sits on the same page range of one conference\'s proceedings of one year, then duplicate without a volume', () => {
    const paper = { title: 'Subcontracting microwork', authors: ['Morris, M. R.', 'Bigham, J. P.'], year: 2017, venue: 'Proceedings of the 2017 CHI Conference on Human Factors in Computing Systems', volume: null, issue: null, pages: '1867-1876' };
    expect(verdict(paper, { ...paper, venue: 'ACM Conference on Human Factors in Computing Systems', volume: '2017-May' })).toBe('duplicate');
    expect(verdict({ ...paper, venue: 'Human Factors' }, { ...paper, venue: 'Human Factors' })).not.toBe('duplicate');
  });

  it('when two "Letter" records share the printed place but have different first authors, then not duplicate', () => {
    expect(verdict({ title: 'Letter', authors: ['Smith, A.', 'Jones, B.'], pages: '945' }, { title: 'Letter', authors: ['Jones, B.', 'Smith, A.'], pages: '945' })).not.toBe('duplicate');
  });

  it('when a short title and authors agree but the locator is missing, then uncertain, never duplicate', () => {
    expect(verdict({ title: 'Eculizumab', venue: null, volume: null, pages: null }, { title: 'Eculizumab', venue: null, volume: null, pages: null })).toBe('uncertain');
  });
});

describe('scorePair rule E (an item named by its printed place)', () => {
  const original = 'Long-term effect of the complement inhibitor eculizumab on kidney function in paroxysmal nocturnal hemoglobinuria';
  const article = { title: `${original}.[Erratum appears in Am J Hematol. 2010 Nov;85(11):911]`, venue: 'American Journal of Hematology', volume: '85', issue: '8', pages: '553-559' };
  const erratum = { title: `${original} (vol 85, pg 553, 2010)`, authors: ['Zuber,'], venue: 'American Journal of Hematology', volume: '85', issue: '11', pages: '911' };

  it('when an article\'s "[Erratum appears in …]" note names the erratum\'s volume, issue and page, then they are one work, marked as linked', () => {
    const result = scorePair(record(article), record(erratum));
    expect(result).toMatchObject({ verdict: 'duplicate', linked: true });
    expect(result.reasons[0]).toMatch(/^rule E: erratum note/);
  });

  it('when the note names the issue but the erratum record carries a garbled page, then the issue identifies it', () => {
    expect(verdict(article, { ...erratum, pages: '19' })).toBe('duplicate');
  });

  it('when the article record has no note, or the note is cut off before the place, then the erratum stays apart', () => {
    expect(verdict({ ...article, title: original }, erratum)).toBe('distinct');
    expect(verdict({ ...article, title: `${original}.[Erratum appears in Am J Hematol. 2010 Nov` }, erratum)).toBe('distinct');
  });

  it('when the note names another volume or issue, then the erratum stays apart', () => {
    expect(verdict({ ...article, title: `${original}.[Erratum appears in Am J Hematol. 2010 Dec;85(12):1001]` }, erratum)).toBe('distinct');
  });

  it('when an item under the original title sits at the cited page, then it is the erratum notice; elsewhere in that issue it is not', () => {
    expect(verdict(article, { ...erratum, title: original, authors: ['Zuber, J.'] })).toBe('duplicate');
    expect(verdict(article, { ...erratum, title: original, authors: ['Zuber, J.'], pages: '915' })).not.toBe('duplicate');
  });

  it('when a reply or retraction sits at the cited place, then it is not the erratum', () => {
    expect(verdict(article, { ...erratum, title: `${original} - Reply` })).toBe('distinct');
    expect(verdict(article, { ...erratum, title: `Retraction notice to: ${original}` })).toBe('distinct');
  });

  const letters = { title: 'Atypical hemolytic uremic syndrome associated with group A beta hemolytic streptococcus (multiple letters) [1]', authors: ['Yildiz, B.', 'Kural, N.', 'Shepherd, A. B.', 'Palmer, A. L.'], venue: 'Pediatric Nephrology', volume: '19', issue: '8', pages: '943-945' };
  const reply = { title: 'Atypical hemolytic uremic syndrome associated with group A beta hemolytic streptococcus - Reply', authors: ['Shepherd, A. B.', 'Palmer, A. L.'], venue: 'Pediatric Nephrology', volume: '19', issue: '8', pages: '945' };

  it('when a "(multiple letters)" record spans a reply\'s page and lists all its authors, then the reply is part of it, marked as linked', () => {
    expect(scorePair(record(letters), record(reply))).toMatchObject({ verdict: 'duplicate', linked: true });
  });

  it('when the reply lies outside the combined page range, or has an author the combined record lacks, then distinct', () => {
    expect(verdict(letters, { ...reply, pages: '946' })).toBe('distinct');
    expect(verdict(letters, { ...reply, authors: ['Shepherd, A. B.', 'Other, O.'] })).toBe('distinct');
    expect(verdict({ ...letters, title: letters.title.replace(' (multiple letters) [1]', '') }, reply)).toBe('distinct');
  });
});

describe('scorePair with fields shifted by a lost volume', () => {
  const abstract = { title: 'The treatment of atypical HUS', authors: ['Loirat, C.'], venue: 'Pediatric Nephrology', year: 2011 };

  it('when one record has no volume and its issue and pages are the other\'s volume and issue, then it is read that way', () => {
    expect(verdict({ ...abstract, volume: null, issue: '26', pages: '9' }, { ...abstract, volume: '26', issue: '9', pages: '1746' })).toBe('duplicate');
  });

  it('when the shifted reading does not match both numbers, then the fields are compared as given', () => {
    expect(verdict({ ...abstract, volume: null, issue: '26', pages: '10' }, { ...abstract, volume: '26', issue: '9', pages: '1746' })).not.toBe('duplicate');
  });
});

describe('scorePair with an article number in the issue field', () => {
  it('when a record without pages gives the other\'s page as its issue (EMBASE, article-numbered journals), then the differing issues do not part them; another issue number still does', () => {
    const article = { title: 'Beyond obesity - thermogenic adipocytes and cardiometabolic health', venue: 'Hormone Molecular Biology and Clinical Investigation', volume: '31', year: 2017 };
    expect(verdict({ ...article, issue: '2', pages: '7' }, { ...article, volume: '31 (2) (no pagination)', issue: '7', pages: null })).toBe('duplicate');
    expect(verdict({ ...article, issue: '2', pages: '7' }, { ...article, issue: '9', pages: null })).not.toBe('duplicate');
  });
});

describe('scorePair with missing titles', () => {
  it('when a title is missing but authors, year, journal, volume and pages all agree, then uncertain (a person decides)', () => {
    expect(verdict({ title: null }, {})).toBe('uncertain');
  });

  it('when a title is missing and any of those fields is absent, then distinct', () => {
    expect(verdict({ title: null, pages: null }, {})).toBe('distinct');
  });
});

describe('scorePair score', () => {
  it('when the records agree on every field, then the score is 1; when nothing agrees, then near 0', () => {
    expect(scorePair(record(), record()).score).toBe(1);
    expect(scorePair(record(), record({ title: 'Unrelated topic entirely here now', authors: ['Other, A.'], year: 1990, venue: 'Other', volume: '99', issue: '9', pages: '1-2' })).score).toBeLessThan(0.1);
  });

  it('when the verdict is given, then the reasons name the rule and each field relation', () => {
    const result = scorePair(record(), record());
    expect(result.reasons[0]).toMatch(/^rule A/);
    expect(result.reasons[1]).toBe('title exact, authors strong, year same, venue same, volume same, issue same, pages same');
  });

  it('when the pair is scored in either order, then the result is the same', () => {
    const a = record({ pages: '1875', issue: '9', volume: '25' });
    const b = record({ pages: '2539-2542', issue: '12', volume: '25', authors: ['Zuber, J.', 'Le Quintrec, M.'] });
    expect(scorePair(a, b)).toEqual(scorePair(b, a));
  });
});
