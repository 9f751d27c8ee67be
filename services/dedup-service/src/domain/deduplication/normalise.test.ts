import {
  compareVenues,
  comparePages,
  decodeHtml,
  foldToAscii,
  normaliseAuthor,
  normaliseTitle,
  normaliseVenue,
  normaliseVolume,
  parsePages,
  sameAuthor,
} from './normalise';

function key(title: string): string | undefined {
  return normaliseTitle(title)?.key;
}

function author(name: string) {
  const parsed = normaliseAuthor(name);
  if (!parsed) throw new Error(`unparsable author ${name}`);
  return parsed;
}

describe('title normalisation', () => {
  it('when titles differ only in case, punctuation, diacritics and British spelling, then their keys are equal', () => {
    expect(key('Haemolytic uraemic syndrome: a Review.')).toBe(key('HEMOLYTIC-URÉMIC SYNDROME - a review'));
    expect(key('Sub-group analysis')).toBe(key('Subgroup analysis'));
    expect(key('Tumour behaviour in randomised trials: the organisation of a paediatric centre')).toBe(key('Tumor behavior in randomized trials: the organization of a pediatric center'));
    expect(key('The political gig-economy: platformed work and labour; analysing ageing and behavioural modelling')).toBe(
      key('The political gig-economy: platformed work and labor; analyzing aging and behavioral modeling'),
    );
    expect(key('Colourful neighbourhoods and favourable behaviourist labourers')).toBe(key('Colorful neighborhoods and favorable behaviorist laborers'));
  });

  it('when short words only look like British spellings (four, hour, your), then they are not folded', () => {
    expect(key('Four cases of thrombotic microangiopathy')).not.toBe(key('For cases of thrombotic microangiopathy'));
    expect(key('Your hour of need')).not.toBe(key('Yor hor of need'));
    expect(normaliseTitle('Four cases of aHUS in one family')?.contentWords).toContain('4');
  });

  it('when one number is written as a word, a digit or a roman numeral after the word it numbers, then the titles read the same', () => {
    expect(key('Two cases of type II diabetes in a phase III trial: 40% remission at stage IV')).toBe(key('2 cases of type 2 diabetes in a phase 3 trial: 40 percent remission at stage 4'));
    expect(normaliseTitle('Type I and type II errors')?.numbers).toEqual(['1', '2']);
    // A roman numeral elsewhere stays a word: "Henry VIII", "vitamin D and factor X" are names.
    expect(key('Factor X deficiency')).not.toBe(key('Factor 10 deficiency'));
    expect(key('Type II diabetes')).not.toBe(key('Type I diabetes'));
    // Words that are names of object properties are words too.
    expect(normaliseTitle('A constructor for two toString proteins')?.words).toEqual(['constructor', 'for', '2', 'tostring', 'proteins']);
    expect(decodeHtml('a &constructor; b')).toBe('a &constructor; b');
    // "One" is also a pronoun: it stays a word.
    expect(normaliseTitle('One of the rare causes of haemolysis')?.words[0]).toBe('one');
  });

  it('when a title carries HTML entities or inline tags, then they are decoded before comparison', () => {
    expect(decodeHtml('Bench &amp; bedside &#233;tude &#x3b1; &eacute;').replace(/\s+/g, ' ')).toBe('Bench & bedside étude α e');
    expect(key('Bench &amp; bedside: <i>CFH</i> variants in aHUS')).toBe(key('Bench & bedside: CFH variants in aHUS'));
  });

  it('when one database spells out a sign the other keeps (&, vs., °, ™, ×, a soft hyphen), then the keys are equal', () => {
    expect(key('Rituximab & plasma exchange in thrombotic thrombocytopenic purpura')).toBe(key('Rituximab and plasma exchange in thrombotic thrombocytopenic purpura'));
    expect(key('Rituximab vs. plasma exchange alone in acquired TTP')).toBe(key('Rituximab versus plasma exchange alone in acquired TTP'));
    expect(key('Cooling to 33 °C after cardiac arrest')).toBe(key('Cooling to 33 degrees C after cardiac arrest'));
    expect(key('Xarelto™ (rivaroxaban®) in atrial fibrillation')).toBe(key('Xarelto (rivaroxaban) in atrial fibrillation'));
    expect(key('A 2 × 2 factorial trial of aspirin')).toBe(key('A 2 x 2 factorial trial of aspirin'));
    expect(normaliseTitle('Acquired throm\u00adbotic thrombocytopenic purpura')?.words).toEqual(normaliseTitle('Acquired thrombotic thrombocytopenic purpura')?.words);
  });

  it('when a title carries a Greek letter as an entity or an entity encoded twice, then it reads as the letter or the sign, never as "and"', () => {
    expect(key('Serum &beta;2-microglobulin in myeloma')).toBe(key('Serum β2-microglobulin in myeloma'));
    expect(key('TNF-&alpha; blockade in sarcoidosis')).toBe(key('TNF-alpha blockade in sarcoidosis'));
    expect(key('Rituximab &amp;amp; plasma exchange')).toBe(key('Rituximab & plasma exchange'));
    expect(key('Rituximab &amp;amp; plasma exchange')).toBe(key('Rituximab and plasma exchange'));
  });

  it('when an export read UTF-8 as Latin-1 or Windows-1252 ("SjÃ¶gren", "Patientsâ€™"), then the text is read back', () => {
    expect(key('Rituximab in SjÃ¶gren syndrome: a cohort')).toBe(key('Rituximab in Sjögren syndrome: a cohort'));
    expect(key('Patientsâ€™ views of stroke rehabilitation')).toBe(key('Patients\u2019 views of stroke rehabilitation'));
    expect(sameAuthor(author('Fioretto, JosÃ© Roberto'), author('Fioretto, José R.'))).toBe(true);
    expect(decodeHtml('Ã  la carte')).toBe('Ã  la carte');
  });

  it('when a title starts with a leading article, then the article is ignored', () => {
    expect(key('The role of complement in thrombotic microangiopathy')).toBe(key('Role of complement in thrombotic microangiopathy'));
    expect(key('A cohort of children with aHUS treated with eculizumab')).toBe(key('Cohort of children with aHUS treated with eculizumab'));
  });

  it('when MEDLINE annotations trail the title, then [Review], [n refs] and the language tag are removed', () => {
    expect(key('Mechanisms of disease: the complement system in renal injury. [Review] [88 refs]')).toBe(key('Mechanisms of disease: the complement system in renal injury'));
    expect(key('[Current aspects of hemolytic uremic syndrome in children]. [Review] [16 refs] [Romanian]')).toBe(key('Current aspects of hemolytic uremic syndrome in children'));
  });

  it('when CENTRAL tags the abstract number ("[abstract no: 134]") or MEDLINE lists two languages ("[German, English]"), then the tag is removed', () => {
    const plain = key('Bleomycin versus interferon alfa in malignant effusions');
    for (const tag of ['[abstract no: 134]', '[Abstract No. 0535]', '[abstract no: O-7 ]', '[German, English]']) expect({ tag, key: key(`Bleomycin versus interferon alfa in malignant effusions ${tag}`) }).toEqual({ tag, key: plain });
  });

  it('when a title is a bracketed translation, then the brackets are dropped and the words kept', () => {
    const title = normaliseTitle('[Paroxysmal nocturnal hemoglobinuria therapy with eculizumab: Spanish experience]. [Spanish]');
    expect(title?.key).toBe(key('Paroxysmal nocturnal hemoglobinuria therapy with eculizumab: Spanish experience'));
    expect(title?.kind).toBe('article');
  });

  it('when an original carries an "[Erratum appears in …]" note, even cut short, then the note is removed and the kind stays article', () => {
    const title = normaliseTitle('Severe deficiency of ADAMTS 13 activity in children with atypical hemolytic uremic syndrome.[Erratum appears in J Pediatr. 2003 Jun');
    expect(title?.kind).toBe('article');
    expect(title?.key).toBe(key('Severe deficiency of ADAMTS 13 activity in children with atypical hemolytic uremic syndrome'));
  });

  it('when an "[Erratum appears in …]" note cites volume, issue and page, then that place is kept; a note cut off before it names none', () => {
    expect(normaliseTitle('Eculizumab for aHUS.[Erratum appears in N Engl J Med. 2009 Jun 4;360(23):2487 Note: Philipp, Thomas [added]]')?.erratumPlaces).toEqual([{ volume: '360', issue: '23', page: '2487' }]);
    expect(normaliseTitle('Long-term effect of eculizumab.[Erratum appears in Am J Hematol. 2010 Nov;85(11):911]')?.erratumPlaces).toEqual([{ volume: '85', issue: '11', page: '911' }]);
    expect(normaliseTitle('Severe deficiency of ADAMTS 13 in children.[Erratum appears in J Pediatr. 2003 Jun')?.erratumPlaces).toEqual([]);
    expect(normaliseTitle('Predisposition to atypical hemolytic uremic syndrome.[Erratum appears in Hu')?.erratumPlaces).toEqual([]);
  });

  it('when a title carries EMBASE\'s "(multiple letters)", then the record is marked as combined letters and the marker removed', () => {
    const title = normaliseTitle('Atypical hemolytic uremic syndrome associated with group A beta hemolytic streptococcus (multiple letters) [1]');
    expect(title).toMatchObject({ combinedLetters: true, kind: 'article', key: key('Atypical hemolytic uremic syndrome associated with group A beta hemolytic streptococcus') });
    expect(normaliseTitle('Atypical hemolytic uremic syndrome associated with group A beta hemolytic streptococcus')?.combinedLetters).toBe(false);
  });

  it('when a title announces an erratum (prefix, Web of Science or EMBASE citation suffix), then its kind is erratum and the marker is removed', () => {
    const original = key('Eculizumab for atypical hemolytic-uremic syndrome');
    for (const title of [
      'Erratum: Eculizumab for atypical hemolytic-uremic syndrome',
      'Correction to: Eculizumab for atypical hemolytic-uremic syndrome',
      'Corrigendum to "Eculizumab for atypical hemolytic-uremic syndrome"',
      'Eculizumab for Atypical Hemolytic-Uremic Syndrome (vol 360, pg 542, 2009)',
      'Eculizumab for atypical hemolytic-uremic syndrome (New England Journal of Medicine (2009) 360 (542-544))',
      'Erratum: Eculizumab for atypical hemolytic-uremic syndrome (The New England Journal of Medicine (M',
    ]) {
      expect({ title, kind: normaliseTitle(title)?.kind, key: normaliseTitle(title)?.key }).toEqual({ title, kind: 'erratum', key: original });
    }
  });

  it('when a title ends as PsycINFO\'s correction notices do ("…: Correction to Lee et al. (2014)"), then its kind is erratum', () => {
    const notice = normaliseTitle('"Rainmakers: Why bad weather means good productivity\u201d: Correction to Lee et al. (2014).');
    expect(notice?.kind).toBe('erratum');
    expect(notice?.key).toBe(key('Rainmakers: Why bad weather means good productivity'));
  });

  it('when a label ends with a full stop, then its kind is the same as without it', () => {
    expect(normaliseTitle('Correction.')?.kind).toBe('erratum');
    expect(normaliseTitle('Correction')?.kind).toBe('erratum');
    expect(normaliseTitle('Erratum.')?.key).toBe(normaliseTitle('ERRATUM')?.key);
  });

  it('when a title merely starts with the word "Correction of", then it is an ordinary article', () => {
    expect(normaliseTitle('Correction of hyponatraemia in critically ill patients')?.kind).toBe('article');
  });

  it('when a title is a reply or comment, then its kind is commentary', () => {
    for (const title of ['Atypical HUS associated with streptococcus - Reply', 'Comment on: atypical HUS associated with streptococcus', 'Re: Atypical HUS associated with streptococcus', 'In reply', 'Reply to the letter by Smith on atypical HUS']) {
      expect({ title, kind: normaliseTitle(title)?.kind }).toEqual({ title, kind: 'commentary' });
    }
  });

  it('when a title is a retraction notice or an expression of concern, then it gets that kind; "RETRACTED:" marks the article itself', () => {
    expect(normaliseTitle('Retraction notice to: Eculizumab in severe STEC-HUS')?.kind).toBe('retraction');
    expect(normaliseTitle('Notice of Retraction: Eculizumab in severe STEC-HUS')?.kind).toBe('retraction');
    expect(normaliseTitle('Expression of concern: Eculizumab in severe STEC-HUS')?.kind).toBe('concern');
    const retracted = normaliseTitle('RETRACTED: Eculizumab in severe STEC-HUS');
    expect(retracted?.kind).toBe('article');
    expect(retracted?.key).toBe(key('Eculizumab in severe STEC-HUS'));
  });

  it('when a title names a part of a multi-part paper, then the part number is extracted in any notation', () => {
    expect(normaliseTitle('Complement in kidney disease. Part II: therapy')?.part).toBe(2);
    expect(normaliseTitle('Complement in kidney disease, part 2')?.part).toBe(2);
    expect(normaliseTitle('Complement in kidney disease - Part one')?.part).toBe(1);
    expect(normaliseTitle('Complement in kidney disease')?.part).toBeNull();
  });

  it('when a letter title cites the commented article after an ellipsis, then the citation is removed', () => {
    expect(key('More on eculizumab for congenital atypical hemolytic-uremic syndrome... N Engl J Med. 2009 Jan 29;360(5):544-6')).toBe(
      key('More on eculizumab for congenital atypical hemolytic-uremic syndrome'),
    );
  });

  it('when a title is generic or has fewer than three content words, then it is weak', () => {
    for (const title of ['Editorial', 'Letter to the editor', 'Erratum', 'Reply', 'Eculizumab', 'Haemolytic anaemia']) {
      expect({ title, weak: normaliseTitle(title)?.weak }).toEqual({ title, weak: true });
    }
    expect(normaliseTitle('Atypical hemolytic uremic syndrome in children')?.weak).toBe(false);
  });

  it('when a title is missing or only punctuation, then there is nothing to compare', () => {
    expect(normaliseTitle(null)).toBeNull();
    expect(normaliseTitle('  ')).toBeNull();
    expect(normaliseTitle('...')).toBeNull();
  });
});

describe('author normalisation', () => {
  it('when names are written "Surname, Initials", MEDLINE "Surname II" or "Given Surname", then surname and initials are found', () => {
    expect(author('Zuber, J.')).toMatchObject({ surname: 'zuber', initials: 'j' });
    expect(author('Fremeaux-Bacchi V')).toMatchObject({ surname: 'fremeauxbacchi', initials: 'v' });
    expect(author('Shepherd, Amy B.')).toMatchObject({ surname: 'shepherd', initials: 'ab' });
    expect(author('Legendre, CM')).toMatchObject({ surname: 'legendre', initials: 'cm' });
    expect(author('Julien Zuber')).toMatchObject({ surname: 'zuber', initials: 'j' });
    expect(author('Nürnberger, Jens')).toMatchObject({ surname: 'nurnberger', initials: 'j' });
  });

  it('when initials follow the surname with dots (Ovid EMBASE "Legendre C.M.", "Wang D.-L.") or spaced ("Smith J. A."), then they are initials, not the surname', () => {
    expect(author('Legendre C.M.')).toMatchObject({ surname: 'legendre', initials: 'cm' });
    expect(author('Wang D.-L.')).toMatchObject({ surname: 'wang', initials: 'dl' });
    expect(author('Goodhue D. L.')).toMatchObject({ surname: 'goodhu', initials: 'dl' });
    expect(author('van der Berg J.A.')).toMatchObject({ surname: 'vanderberg', initials: 'ja' });
    expect(author('LI X Y')).toMatchObject({ surname: 'li', initials: 'xy' });
    expect(sameAuthor(author('Sæbø Ø.'), author('Sæbø, Øystein'))).toBe(true);
    expect(author('Siqueira É.').initials).toBe('e');
    expect(sameAuthor(author('Legendre C.M.'), author('Legendre, Christophe M.'))).toBe(true);
  });

  it('when the same person is exported with particles, spelling variants or inverted names, then the authors match', () => {
    expect(sameAuthor(author('Le Quintrec, M.'), author('Quintrec, M.'))).toBe(true);
    expect(sameAuthor(author('Le, Quintrec M.'), author('Le Quintrec, M.'))).toBe(true);
    expect(sameAuthor(author('Nuernberger, J.'), author('Nurnberger, Jens'))).toBe(true);
    expect(sameAuthor(author('Lopez, Rubio M.'), author('Rubio, M. L.'))).toBe(true);
    expect(sameAuthor(author('Goicoechea de, Jorge E.'), author('de Jorge, E. G.'))).toBe(true);
    expect(sameAuthor(author('Shin'), author('Shin, J. I.'))).toBe(true);
    expect(sameAuthor(author('Jammal, T.'), author('Jamal, T.'))).toBe(true);
  });

  it('when surnames agree but first initials differ, or surnames differ, then the authors do not match', () => {
    expect(sameAuthor(author('Smith, J.'), author('Smith, A.'))).toBe(false);
    expect(sameAuthor(author('Zuber, J.'), author('Zubrod, J.'))).toBe(false);
    expect(sameAuthor(author('Le, T.'), author('Le Quintrec, T.'))).toBe(false);
  });
});

describe('venue comparison', () => {
  it('when one journal name is the ISO abbreviation of the other, then the venues are compatible', () => {
    expect(compareVenues(normaliseVenue('N Engl J Med'), normaliseVenue('New England Journal of Medicine'))).toBe('compatible');
    expect(compareVenues(normaliseVenue('Proc Natl Acad Sci U S A'), normaliseVenue('Proceedings of the National Academy of Sciences of the United States of America'))).toBe('compatible');
    expect(compareVenues(normaliseVenue('Clin J Am Soc Nephrol.'), normaliseVenue('Clinical Journal of the American Society of Nephrology'))).toBe('compatible');
  });

  it('when one venue name announces a conference\'s companion volume (companion, extended abstracts, workshop) and the other does not, then they are different venues', () => {
    expect(compareVenues(normaliseVenue('Proceedings of the 38th International Conference on Software Engineering Companion'), normaliseVenue('Proceedings of the 38th International Conference on Software Engineering'))).toBe('different');
    expect(compareVenues(normaliseVenue('Pre-ICIS Workshop (International Conference on Information Systems)'), normaliseVenue('International Conference on Information Systems'))).toBe('different');
    expect(compareVenues(normaliseVenue('Prim Care Companion CNS Disord'), normaliseVenue('The Primary Care Companion for CNS Disorders'))).toBe('compatible');
  });

  it('when both venue names state an edition (year or ordinal) and the editions differ, then they are different venues; one stating none stays compatible', () => {
    expect(compareVenues(normaliseVenue('Proceedings of the 2018 CHI Conference on Human Factors in Computing Systems'), normaliseVenue('Proceedings of the 2019 CHI Conference on Human Factors in Computing Systems'))).toBe('different');
    expect(compareVenues(normaliseVenue('26th European Conference on Information Systems'), normaliseVenue('27th European Conference on Information Systems'))).toBe('different');
    expect(compareVenues(normaliseVenue('European Conference on Information Systems (ECIS 2019)'), normaliseVenue('27th European Conference on Information Systems'))).toBe('compatible');
  });

  it('when names differ in "&"/"and", case, a trailing dot or an EMBASE conference tail, then the venues are the same', () => {
    expect(compareVenues(normaliseVenue('Seminars in Thrombosis & Hemostasis'), normaliseVenue('Seminars in thrombosis and hemostasis.'))).toBe('same');
    expect(compareVenues(normaliseVenue('Scandinavian Journal of Immunology.Conference: 39th Meeting, Tallinn Estonia.'), normaliseVenue('Scandinavian Journal of Immunology'))).toBe('same');
  });

  it('when an export gives the journal\'s parallel names ("[…]", " = "), then any of them is the journal', () => {
    expect(compareVenues(normaliseVenue('Japanese Journal of Cancer and Chemotherapy'), normaliseVenue('Gan to Kagaku Ryoho [Japanese Journal of Cancer & Chemotherapy]'))).toBe('same');
    expect(compareVenues(normaliseVenue('Gan to Kagaku Ryoho'), normaliseVenue('Gan to Kagaku Ryoho [Japanese Journal of Cancer & Chemotherapy]'))).toBe('same');
    expect(compareVenues(normaliseVenue('Chinese Journal of Cancer'), normaliseVenue('Ai zheng = Aizheng = Chinese journal of cancer'))).toBe('same');
    expect(compareVenues(normaliseVenue('Aizheng'), normaliseVenue('Ai zheng = Aizheng = Chinese journal of cancer'))).toBe('same');
    // A note on the medium names no journal.
    expect(compareVenues(normaliseVenue('Electronic Resource Management'), normaliseVenue('PLoS ONE [Electronic Resource]'))).toBe('different');
    expect(compareVenues(normaliseVenue('Gan to Kagaku Ryoho [Japanese Journal of Cancer & Chemotherapy]'), normaliseVenue('Japanese Journal of Clinical Oncology'))).toBe('different');
  });

  it('when a name is written as one word or two ("Zhenjiu"), with "+" for "and", or with the prepositions ISO abbreviations leave out, then the venues agree', () => {
    expect(compareVenues(normaliseVenue('Zhongguo Zhenjiu'), normaliseVenue('Zhongguo zhen jiu [Chinese acupuncture & moxibustion]'))).toBe('same');
    expect(compareVenues(normaliseVenue('Social Media + Society'), normaliseVenue('Social Media and Society'))).toBe('same');
    expect(compareVenues(normaliseVenue('Ned Tijdschr Geneeskd'), normaliseVenue('Nederlands Tijdschrift voor Geneeskunde'))).toBe('compatible');
    expect(compareVenues(normaliseVenue('Physica A'), normaliseVenue('Physica E'))).toBe('different');
  });

  it('when one name only adds trailing words, then compatible; when journals differ, then different', () => {
    expect(compareVenues(normaliseVenue('Nephron'), normaliseVenue('Nephron - Clinical Practice'))).toBe('compatible');
    expect(compareVenues(normaliseVenue('Pediatric Nephrology'), normaliseVenue('Molecular Immunology'))).toBe('different');
    expect(compareVenues(normaliseVenue(null), normaliseVenue('Blood'))).toBe('missing');
  });

  it('when one conference series is named with and without edition, year and "Proceedings", then compatible', () => {
    expect(compareVenues(normaliseVenue('Hawaii International Conference on System Sciences'), normaliseVenue('50Th Annual Hawaii International Conference On System Sciences'))).toBe('compatible');
    expect(compareVenues(normaliseVenue('Americas Conference on Information Systems'), normaliseVenue('25TH AMERICAS CONFERENCE ON INFORMATION SYSTEMS (AMCIS )'))).toBe('compatible');
    expect(compareVenues(normaliseVenue('Symposium on Usable Privacy and Security, SOUPS'), normaliseVenue('PROCEEDINGS OF THE SIXTEENTH SYMPOSIUM ON USABLE PRIVACY AND SECURITY (SOUPS )'))).toBe('compatible');
  });

  it('when a conference is named by its acronym and by its full name, then compatible; a word that spells other initials is not', () => {
    expect(compareVenues(normaliseVenue('ICIS : Transforming Society with Digital Innovation'), normaliseVenue('International Conference on Information Systems'))).toBe('compatible');
    expect(compareVenues(normaliseVenue('Proceedings of the 51st Hawaii International Conference on System Sciences'), normaliseVenue('HICSS 2018'))).toBe('compatible');
    expect(compareVenues(normaliseVenue('ICIST 2019'), normaliseVenue('International Conference on Information Systems'))).toBe('different');
    expect(compareVenues(normaliseVenue('ECIS 2019'), normaliseVenue('International Conference on Information Systems'))).toBe('different');
    // Journals are not matched by acronym: their initials are too short and too common.
    expect(compareVenues(normaliseVenue('JAMA'), normaliseVenue('Journal of the American Medical Association'))).toBe('different');
  });

  it('when a proceedings is named by its acronym with a year ("ICIS 2017 Proceedings", "CHI 2019") and the other name carries that acronym, then compatible', () => {
    expect(compareVenues(normaliseVenue('ICIS 2017 Proceedings'), normaliseVenue('38th International Conference on Information Systems: Transforming Society with Digital Innovation, ICIS 2017'))).toBe('compatible');
    expect(compareVenues(normaliseVenue('CHI 2019'), normaliseVenue('Proceedings of the 2019 CHI Conference on Human Factors in Computing Systems'))).toBe('compatible');
    expect(compareVenues(normaliseVenue('ICIS 2017 Proceedings'), normaliseVenue('26th Americas Conference on Information Systems, AMCIS 2020'))).toBe('different');
    expect(compareVenues(normaliseVenue('Stroke'), normaliseVenue('International Stroke Conference'))).toBe('different');
  });

  it('when a French name keeps or loses its elided article, then it still abbreviates word by word', () => {
    expect(compareVenues(normaliseVenue('Ann Fr Anesth Reanim'), normaliseVenue("Annales françaises d'anesthésie et de réanimation"))).toBe('compatible');
    expect(compareVenues(normaliseVenue('Ann Fr Anesth Reanim'), normaliseVenue('Annales Francaises d Anesthesie et de Reanimation'))).toBe('compatible');
  });

  it('when a conference name lacks a word of the other, or the names are journals, then word containment is not enough', () => {
    expect(compareVenues(normaliseVenue('International Conference on Information Systems'), normaliseVenue('European Conference on Information Systems'))).toBe('different');
    expect(compareVenues(normaliseVenue('Journal of Clinical Oncology'), normaliseVenue('International Journal of Clinical Oncology'))).toBe('different');
  });
});

describe('pages and volumes', () => {
  it('when pages come as ranges in different notations, then first and last page are parsed', () => {
    expect(parsePages('23-35')).toEqual({ first: '23', last: '35' });
    expect(parsePages('376 -- 383')).toEqual({ first: '376', last: '383' });
    expect(parsePages('499\u2013711')).toEqual({ first: '499', last: '711' });
    expect(parsePages('e1234')).toEqual({ first: '1234', last: null, electronic: true });
    expect(parsePages('c37-c42')).toEqual({ first: '37', last: '42' });
    expect(parsePages('800-800')).toEqual({ first: '800', last: null });
    expect(parsePages('532, 534-536, 538-540')).toEqual({ first: '532', last: '540' });
    expect(parsePages(null)).toBeNull();
  });

  it('when the last page is abbreviated, then it is expanded from the first page', () => {
    expect(parsePages('23-5')).toEqual({ first: '23', last: '25' });
    expect(parsePages('1844-59')).toEqual({ first: '1844', last: '1859' });
    expect(parsePages('1199-201')).toEqual({ first: '1199', last: '1201' });
  });

  it('when a spreadsheet turned the range into a date on export, then the two numbers are read back', () => {
    expect(parsePages('10-Jul')).toEqual({ first: '10', last: '17' });
    expect(parsePages('Oct-17')).toEqual({ first: '10', last: '17' });
    expect(parsePages('01-Apr')).toEqual({ first: '1', last: '4' });
    expect(parsePages('Nov-19')).toEqual({ first: '11', last: '19' });
    expect(parsePages('May 3')).toEqual({ first: '3', last: null });
  });

  it('when first pages agree, or ranges end on the same page, then pages agree; otherwise they conflict', () => {
    expect(comparePages(parsePages('943-945'), parsePages('943-944'))).toBe('same');
    expect(comparePages(parsePages('C219-C235'), parsePages('c219-c235'))).toBe('same');
    expect(comparePages(parsePages('2297-2108'), parsePages('2097-2108'))).toBe('end');
    expect(comparePages(parsePages('23-35'), parsePages('36-40'))).toBe('conflict');
    expect(comparePages(parsePages('23-35'), null)).toBe('missing');
  });

  it('when an export kept only the end of the range, then it agrees with the range that ends there', () => {
    expect(parsePages('Suppl-48')).toEqual({ first: null, last: '48' });
    expect(comparePages(parsePages('Suppl-48'), parsePages('L37-L48'))).toBe('end');
    expect(comparePages(parsePages('Suppl-48'), parsePages('L37-L49'))).toBe('conflict');
    expect(comparePages(parsePages('488'), parsePages('487-488'))).toBe('end');
    expect(comparePages(parsePages('487'), parsePages('487-488'))).toBe('same');
    expect(comparePages(parsePages('489'), parsePages('487-488'))).toBe('conflict');
    expect(comparePages(parsePages('488'), parsePages('489'))).toBe('conflict');
  });

  it('when one gives an electronic article number and the other a printed range, then neither confirms nor contradicts', () => {
    expect(parsePages('e12724')).toEqual({ first: '12724', last: null, electronic: true });
    expect(comparePages(parsePages('e12724'), parsePages('1-6'))).toBe('missing');
    expect(comparePages(parsePages('a1754'), parsePages('969-972'))).toBe('missing');
    expect(comparePages(parsePages('e12724'), parsePages('e12725'))).toBe('conflict');
    expect(comparePages(parsePages('e12724'), parsePages('12724'))).toBe('same');
  });

  it('when a volume carries a label or spilled journal words, then only its number counts', () => {
    expect(normaliseVolume('Vol. 26')).toBe('26');
    expect(normaliseVolume('Drug Discovery. 9')).toBe('9');
    expect(normaliseVolume('007')).toBe('7');
    expect(normaliseVolume('(Jul)')).toBeNull();
    expect(normaliseVolume('September')).toBeNull();
    expect(normaliseVolume('Decade')).toBe('decade');
    expect(normaliseVolume(null)).toBeNull();
  });
});

describe('normalisation shortcuts', () => {
  it('when text is ASCII, then folding returns it as the full NFKD fold would', () => {
    const everyAscii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join('');
    const fullFold = (text: string) => text.normalize('NFKD').replace(/\p{M}+/gu, '').replace(/[\u2010-\u2015\u2212]/g, '-').replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'");
    for (const text of [everyAscii, 'Smith, J. A.', 'Haemolytic uraemic syndrome: a review']) expect(foldToAscii(text)).toBe(fullFold(text));
    expect(foldToAscii('Müller–Łukasz')).toBe('Muller-Lukasz');
  });

  it('when the same author name is normalised again, then the result is equal to the first and cannot be changed by a caller', () => {
    const first = normaliseAuthor('van der Berg, Jan-Willem');
    expect(normaliseAuthor('van der Berg, Jan-Willem')).toEqual(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first?.surnameTokens) && Object.isFrozen(first?.givenTokens)).toBe(true);
    expect(normaliseAuthor('   ')).toBeNull();
    expect(normaliseAuthor('   ')).toBeNull();
  });

  it('when an author field holds a database\'s placeholder for no author, then it names no one, while a surname such as Anon with initials stays an author', () => {
    for (const placeholder of ['Anonymous', '[Anonymous]', 'Anon.', '[No authors listed]', 'No authors listed', 'ANONYMOUS']) expect(normaliseAuthor(placeholder)).toBeNull();
    expect(normaliseAuthor('Anon, J. K.')?.surname).toBe('anon');
  });
});
