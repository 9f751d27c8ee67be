// Synthetic sets built to tempt the engine into false merges, replayed as a stream in several
// orders. Each set also holds true duplicates, so the assertions cannot pass by merging nothing.

import { replayStream, seededShuffle } from './evaluation';
import { type DedupRecord } from './record';
import { bareDedupRecord } from './record.fixture';

interface Labelled {
  record: DedupRecord;
  work: string;
}

function item(work: string, fields: Partial<DedupRecord>): Labelled {
  return { work, record: bareDedupRecord('a', { year: 2012, ...fields }) };
}

/** Runs the set in file order and three shuffled orders; returns merges across works and within. */
function replay(set: Labelled[]): { falseMerges: string[]; trueMerges: number } {
  const workOf = new Map(set.map((entry) => [entry.record.id, entry.work]));
  let trueMerges = Number.POSITIVE_INFINITY;
  const falseMerges: string[] = [];
  for (const seed of [0, 1, 2, 3]) {
    const ordered = seed === 0 ? set.map((entry) => entry.record) : seededShuffle(set.map((entry) => entry.record), seed);
    const { decisions } = replayStream(ordered);
    let merges = 0;
    for (const [id, decision] of decisions) {
      if (decision.determination !== 'duplicate' || decision.canonicalId === null) continue;
      if (workOf.get(id) === workOf.get(decision.canonicalId)) merges++;
      else falseMerges.push(`${id} → ${decision.canonicalId} (${decision.detail})`);
    }
    trueMerges = Math.min(trueMerges, merges);
  }
  return { falseMerges, trueMerges };
}

const JOURNALS = ['Blood', 'Lancet', 'Pediatric Nephrology', 'Kidney International', 'British Journal of Haematology', 'Nephrology Dialysis Transplantation', 'American Journal of Transplantation', 'Journal of the American Society of Nephrology'];

describe('adversarial synthetic sets', () => {
  it('when generic titles appear in many journals and issues, then only copies of the same item merge', () => {
    const set: Labelled[] = [];
    const generic = ['Editorial', 'Letter to the editor', 'Reply', 'Erratum', 'Correction', 'Retraction', 'Introduction', 'In this issue'];
    for (const [j, venue] of JOURNALS.entries()) {
      for (const [g, title] of generic.entries()) {
        for (const issue of ['1', '2']) {
          // Every journal prints its items on the same volume and pages: only the journal tells them apart.
          const fields = { title, venue, volume: '12', issue, pages: issue === '1' ? `${1 + g}` : `${100 + g}`, authors: g % 2 === 0 ? [] : ['Editor, E.'] };
          set.push(item(`${j}-${g}-${issue}`, fields));
        }
      }
      // The same editorial exported twice from the same journal issue.
      set.push(item(`${j}-0-1`, { title: 'EDITORIAL.', venue, volume: '12', issue: '1', pages: '1' }));
    }
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(JOURNALS.length);
  });

  it('when errata, corrections, retractions and comments accompany their originals, then only an erratum the original\'s record names by place joins it', () => {
    const set: Labelled[] = [];
    for (let n = 0; n < 12; n++) {
      const title = `Long-term outcome of eculizumab treatment in cohort ${String.fromCharCode(65 + n)} of atypical haemolytic uraemic syndrome patients`;
      const base = { authors: ['Hillmen, P.', 'Elebute, M.', 'Kelly, R.'], venue: 'American Journal of Hematology', volume: '85', year: 2010 };
      const start = 100 + n * 20;
      // Even cohorts: the original's note names its erratum's place, so the erratum (indexed two ways)
      // is part of that work. Odd cohorts: the note is cut off before the place, so it stays apart.
      const named = n % 2 === 0;
      const note = named ? `[Erratum appears in Am J Hematol. 2010 Nov;85(11):${900 + n}]` : '[Erratum appears in Am J Hematol. 2010 Nov';
      set.push(item(`orig-${n}`, { ...base, title: `${title}.${note}`, issue: '8', pages: `${start}-${start + 9}` }));
      set.push(item(`orig-${n}`, { ...base, title, issue: '8', pages: `${start}-${start + 9}` }));
      set.push(item(named ? `orig-${n}` : `err-${n}`, { ...base, title: `Erratum: ${title}`, issue: '11', pages: `${900 + n}` }));
      // The same notice indexed under the bare title, on the same page.
      set.push(item(named ? `orig-${n}` : `err-${n}`, { ...base, title, issue: '11', pages: `${900 + n}` }));
      set.push(item(`err2-${n}`, { ...base, title: `${title} (vol 85, pg ${start}, 2010)`, authors: ['Hillmen,'], issue: '12', pages: `${950 + n}` }));
      set.push(item(`corr-${n}`, { ...base, title: `Correction to: ${title}`, issue: '12', pages: `${980 + n}` }));
      set.push(item(`retr-${n}`, { ...base, title: `Retraction notice to: ${title}`, issue: '12', pages: `${990 + n}` }));
      set.push(item(`comm-${n}`, { ...base, title: `Comment on: ${title}`, authors: ['Critic, C.'], issue: '10', pages: `${800 + n}` }));
      set.push(item(`reply-${n}`, { ...base, title: `${title} - Reply`, issue: '10', pages: `${810 + n}` }));
      // A reply printed in the very issue the note names is still not the erratum.
      set.push(item(`reply-in-erratum-issue-${n}`, { ...base, title: `${title} - Reply`, authors: ['Critic, C.'], issue: '11', pages: `${920 + n}` }));
    }
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    // Per cohort at least two merges in any order: the erratum's two labels, and either the two
    // records of the original or (when the noted record meets the erratum first) that record and
    // the erratum; all three in the orders where the noted record arrives in between.
    expect(trueMerges).toBeGreaterThanOrEqual(24);
  });

  it('when titles are missing, then no title-less record is merged, even with every other field agreeing', () => {
    const set: Labelled[] = [];
    for (let n = 0; n < 10; n++) {
      const base = { authors: ['Zuber, J.', 'Le Quintrec, M.'], venue: 'Nat Rev Nephrol', volume: '7', issue: '1', pages: `${23 + n * 15}-${35 + n * 15}`, year: 2011 };
      set.push(item(`w-${n}`, { ...base, title: `New insights into post-transplant haemolytic uraemic syndrome, topic number ${n}` }));
      set.push(item(`w-${n}`, { ...base, title: `New insights into post-transplant hemolytic uremic syndrome, topic number ${n}.` }));
      set.push(item(`untitled-${n}`, { ...base, title: null }));
      set.push(item(`untitled-other-${n}`, { ...base, title: null, authors: ['Other, A.'] }));
    }
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(10);
  });

  it('when different papers in the same journal issue have near-identical titles, then they stay apart', () => {
    const base = { authors: ['Licht, C.', 'Muus, P.', 'Legendre, C.'], venue: 'Journal of Thrombosis and Haemostasis', volume: '9', issue: '2', year: 2011 };
    const set: Labelled[] = [
      item('sensitive', { ...base, title: 'Eculizumab in adult patients with plasma therapy-sensitive atypical haemolytic uraemic syndrome: a phase II trial', pages: '101-108' }),
      item('resistant', { ...base, title: 'Eculizumab in adult patients with plasma therapy-resistant atypical haemolytic uraemic syndrome: a phase II trial', pages: '109-116' }),
      item('hypo', { ...base, title: 'Hypothyroidism in children treated with complement inhibitors for atypical haemolytic uraemic syndrome', pages: '117-120' }),
      item('hyper', { ...base, title: 'Hyperthyroidism in children treated with complement inhibitors for atypical haemolytic uraemic syndrome', pages: '121-124' }),
      item('type1', { ...base, title: 'Complement activation in type 1 diabetes with atypical haemolytic uraemic syndrome', pages: '125-128' }),
      item('type2', { ...base, title: 'Complement activation in type 2 diabetes with atypical haemolytic uraemic syndrome', pages: '129-132' }),
      item('mice', { ...base, title: 'Factor H deficiency causes renal thrombotic microangiopathy in mice', pages: '133-136' }),
      item('rats', { ...base, title: 'Factor H deficiency causes renal thrombotic microangiopathy in rats', pages: '137-140' }),
      item('2009', { ...base, title: 'Registry report on atypical haemolytic uraemic syndrome treatment for 2009', pages: '141-144' }),
      item('2010', { ...base, title: 'Registry report on atypical haemolytic uraemic syndrome treatment for 2010', pages: '145-148' }),
      // The same pair again, one copy without pages (a conference listing of the same issue).
      item('hypo', { ...base, title: 'Hypothyroidism in children treated with complement inhibitors for atypical haemolytic uraemic syndrome.', pages: '117-120' }),
      item('sensitive', { ...base, title: 'EcuIizumab in adult patients with plasma therapy-sensitive atypical haemolytic uraemic syndrome: a phase II trial', pages: '101-108' }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(2);
  });

  it('when companion abstracts differ only by a Greek letter or a symbol, then they stay apart, and a letter spelled out still matches its symbol', () => {
    const base = { authors: ['Taher, A. T.', 'Musallam, K. M.', 'Cappellini, M. D.'], venue: 'Haematologica', volume: '97', issue: 's1', year: 2012 };
    const set: Labelled[] = [
      item('alpha', { ...base, title: 'Iron overload in non-transfusion-dependent \u03b1-thalassaemia: data from the OPTIMAL CARE study', pages: '234' }),
      item('beta', { ...base, title: 'Iron overload in non-transfusion-dependent \u03b2-thalassaemia: data from the OPTIMAL CARE study', pages: '236' }),
      item('old', { ...base, title: 'Allogeneic transplantation in patients aged \u226560 years with acute myeloid leukaemia in first remission', pages: null }),
      item('young', { ...base, title: 'Allogeneic transplantation in patients aged <60 years with acute myeloid leukaemia in first remission', pages: '240' }),
      item('positive', { ...base, title: 'Imatinib-based induction in Ph+ acute lymphoblastic leukaemia of the elderly', pages: '241' }),
      item('negative', { ...base, title: 'Imatinib-based induction in Ph\u2212 acute lymphoblastic leukaemia of the elderly', pages: null }),
      item('kappa', { ...base, title: 'Free light chain \u03ba ratios in monoclonal gammopathy', pages: '250' }),
      item('lambda', { ...base, title: 'Free light chain \u03bb ratios in monoclonal gammopathy', pages: null }),
      // The same abstracts exported without Unicode.
      item('beta', { ...base, title: 'Iron overload in non-transfusion-dependent beta-thalassaemia: data from the OPTIMAL CARE study', pages: '236' }),
      item('old', { ...base, title: 'Allogeneic transplantation in patients aged >=60 years with acute myeloid leukaemia in first remission', pages: null }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(2);
  });

  it('when companion abstracts differ by one word a typo could not explain, then they stay apart even where one copy has no pages', () => {
    const base = { authors: ['Peyvandi, F.', 'Mannucci, P. M.'], venue: 'Journal of Thrombosis and Haemostasis', volume: '11', issue: 's2', year: 2013 };
    const pairs: Array<[string, string, string]> = [
      ['viii', 'Inhibitor development in previously untreated patients with severe factor VIII deficiency', 'Inhibitor development in previously untreated patients with severe factor XIII deficiency'],
      ['maternal', 'Maternal antibodies against platelet antigens in neonatal alloimmune thrombocytopenia', 'Paternal antibodies against platelet antigens in neonatal alloimmune thrombocytopenia'],
      ['intra', 'Intracellular signalling of von Willebrand factor in endothelial cells under shear stress', 'Intercellular signalling of von Willebrand factor in endothelial cells under shear stress'],
      ['micro', 'Microcytic anaemia in children with inherited bleeding disorders: a cohort study', 'Macrocytic anaemia in children with inherited bleeding disorders: a cohort study'],
      ['kras', 'KRAS mutations in myeloid neoplasms with thrombocytosis and marrow fibrosis', 'NRAS mutations in myeloid neoplasms with thrombocytosis and marrow fibrosis'],
      ['increased', 'Increased thrombin generation in carriers of prothrombin gene variants', 'Decreased thrombin generation in carriers of prothrombin gene variants'],
    ];
    const set: Labelled[] = [];
    for (const [index, [work, first, second]] of pairs.entries()) {
      set.push(item(`${work}-1`, { ...base, title: first, pages: `${300 + index * 2}` }));
      set.push(item(`${work}-2`, { ...base, title: second, pages: null }));
    }
    // Real misspellings of the same abstracts still merge.
    set.push(item('viii-1', { ...base, title: 'Inhibitor developmnet in previously untreated patients with severe factor VIII deficiency', pages: null }));
    set.push(item('micro-1', { ...base, title: 'Microcytic anemia in children with inherited bleeding disorders: a cohort studdy', pages: '306' }));
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(2);
  });

  it('when a column with a short title runs in several issues of a volume, then issues stay apart though one is exported without pages', () => {
    const column = { title: 'Message from the Editor-in-Chief', authors: ['Lo Coco, F.'], year: 2015, venue: 'Leukemia Research', volume: '39' };
    const update = { title: 'Clinical trials update', authors: ['Cheson, B. D.'], year: 2012, venue: 'Clinical Advances in Hematology & Oncology', volume: '10' };
    const set: Labelled[] = [
      item('message-1', { ...column, issue: '1', pages: '1' }),
      item('message-7', { ...column, issue: '7', pages: null }),
      // Journals paginating each issue anew print the column on the same page every time.
      item('message-9', { ...column, issue: '9', pages: '1' }),
      item('update-3', { ...update, issue: '3', pages: '189-190' }),
      item('update-6', { ...update, issue: '6', pages: null }),
      item('message-1', { ...column, title: 'Message from the editor-in-chief.', issue: '1', pages: '1' }),
      item('update-6', { ...update, issue: '6', pages: '401-402' }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(2);
  });

  it('when a conference introduces a minitrack under the same title each year, then the years stay apart and each year\'s copies merge', () => {
    const intro = { title: 'Introduction to the Minitrack on Crowdsourcing and Digital Workforce in the Gig Economy', authors: ['Deng, Xuefei', 'Taylor, Joseph', 'Moussawi, Sara'], venue: 'Proceedings of the Annual Hawaii International Conference on System Sciences' };
    const set: Labelled[] = [
      item('2021', { ...intro, year: 2021 }),
      item('2022', { ...intro, year: 2022 }),
      item('2023', { ...intro, year: 2023, title: 'Crowdsourcing and Digital Workforce in the Gig Economy: Minitrack Introduction' }),
      // One year's introduction exported twice, with the printed pages of that year's proceedings.
      item('2022', { ...intro, year: 2022, pages: '4120-4122' }),
      item('2022', { ...intro, year: 2022, pages: '4120-4122', venue: 'Hawaii International Conference on System Sciences (HICSS 2022)' }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(1);
  });

  it('when an erratum indexed under the article\'s own title fills two pages later in the volume, then it stays apart from the article', () => {
    const base = { title: 'Eculizumab in atypical haemolytic uraemic syndrome: two-year results of a prospective phase 2 trial', authors: ['Licht, C.', 'Greenbaum, L. A.', 'Muus, P.', 'Babu, S.'], year: 2013, venue: 'Blood', volume: '122' };
    const set: Labelled[] = [
      item('article', { ...base, issue: '5', pages: '845-854' }),
      item('notice', { ...base, issue: '12', pages: '2162-2163' }),
      item('article', { ...base, title: `${base.title}.`, issue: '5', pages: '845-54' }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(1);
  });

  it('when a Cochrane review appears as protocol, review and update under one title and CD number, then the versions stay apart and each version\'s copies merge', () => {
    const base = { title: 'Antithrombotic agents for preventing thrombosis after infrainguinal arterial bypass surgery', authors: ['Bedenis, R.', 'Lethaby, A.', 'Maxwell, H.', 'Acosta, S.', 'Prins, M. H.'], venue: 'Cochrane Database of Systematic Reviews' };
    const set: Labelled[] = [
      item('2013', { ...base, year: 2013, issue: '4', pages: 'CD000536' }),
      item('2014', { ...base, year: 2014, issue: '1', pages: null }),
      item('2015', { ...base, year: 2015, volume: '2015', issue: '2', pages: 'CD000536', venue: 'Cochrane Database Syst Rev' }),
      // The 2013 version as MEDLINE and Embase export it.
      item('2013', { ...base, title: `${base.title}.`, year: 2013, issue: '4', pages: 'CD000536', venue: 'Cochrane Database Syst Rev' }),
      item('2014', { ...base, year: 2014, issue: '1', pages: 'CD000536' }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(2);
  });

  it('when a paper is published in parts, then part I and part II never merge, with or without pages', () => {
    const base = { authors: ['Noris, M.', 'Remuzzi, G.'], venue: 'New England Journal of Medicine', volume: '361', issue: '17', year: 2009 };
    const set: Labelled[] = [
      item('p1', { ...base, title: 'Atypical hemolytic-uremic syndrome: genetics and complement. Part I', pages: '1676-1687' }),
      item('p2', { ...base, title: 'Atypical hemolytic-uremic syndrome: genetics and complement. Part II', pages: '1688-1699' }),
      item('p3', { ...base, title: 'Atypical hemolytic-uremic syndrome: genetics and complement, part 3', pages: null }),
      item('p1', { ...base, title: 'Atypical hemolytic-uremic syndrome: genetics and complement - part 1', pages: null }),
      item('p2', { ...base, title: 'Atypical hemolytic-uremic syndrome: genetics and complement. Part two', pages: null, volume: null }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(2);
  });

  it('when the same title is reused by other authors or in other years, then those works stay apart', () => {
    const title = 'Atypical hemolytic uremic syndrome';
    const set: Labelled[] = [
      item('noris', { title, authors: ['Noris, M.', 'Remuzzi, G.'], year: 2009, venue: 'N Engl J Med', volume: '361', pages: '1676-1687' }),
      item('loirat', { title, authors: ['Loirat, C.', 'Fremeaux-Bacchi, V.'], year: 2011, venue: 'Orphanet J Rare Dis', volume: '6', pages: '60' }),
      item('kavanagh', { title, authors: ['Kavanagh, D.', 'Goodship, T. H. J.'], year: 2010, venue: 'Current Opinion in Hematology', volume: '17', pages: '432-438' }),
      item('loirat-2010', { title, authors: ['Loirat, C.', 'Fremeaux-Bacchi, V.'], year: 2010, venue: 'Presse Med', volume: '39', pages: '101-110' }),
      item('loirat-2010', { title: `${title}.`, authors: ['Loirat, C', 'Fremeaux-Bacchi, V'], year: 2010, venue: 'La Presse Medicale', volume: '39', pages: '101-10' }),
      item('gateways-28', { title: 'Gateways to clinical trials', authors: ['Bayes, M.', 'Rabasseda, X.'], year: 2006, venue: 'Methods Find Exp Clin Pharmacol', volume: '28', issue: '3', pages: '185-206' }),
      item('gateways-28b', { title: 'Gateways to clinical trials', authors: ['Bayes, M.', 'Rabasseda, X.'], year: 2006, venue: 'Methods Find Exp Clin Pharmacol', volume: '28', issue: '7', pages: '467-509' }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(1);
  });

  it('when an unsigned feature recurs yearly under one title and one year is exported without volume, then the years stay apart and each year\'s copies merge', () => {
    const news = { title: 'Highlights from the annual meeting of the American Society of Hematology', venue: 'Oncology Times' };
    const drugs = { title: 'New drugs and indications approved in the past year for haematological cancers', venue: 'Prescrire International' };
    const set: Labelled[] = [
      item('news-2011', { ...news, authors: ['Anonymous'], year: 2011, volume: '33', issue: '1', pages: '12-14' }),
      item('news-2012', { ...news, authors: ['Anonymous'], year: 2012 }),
      item('drugs-2011', { ...drugs, authors: ['[No authors listed]'], year: 2011, volume: '20', issue: '113', pages: '45' }),
      item('drugs-2012', { ...drugs, authors: ['[No authors listed]'], year: 2012 }),
      // One year's item as MEDLINE and Web of Science export it.
      item('news-2011', { ...news, title: `${news.title}.`, authors: [], year: 2011, volume: '33', issue: '1', pages: '12-4' }),
      item('drugs-2011', { ...drugs, authors: ['Anon'], year: 2011, volume: '20', issue: '113', pages: '45' }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(2);
  });

  it('when companion abstracts differ by a word ending or stem that names another condition, organ, procedure or drug, then they stay apart even where one copy has no pages', () => {
    const base = { authors: ['Bray, B. D.', 'Rudd, A. G.', 'Smith, C. J.'], venue: 'European Stroke Journal', volume: '4', issue: 'Suppl 1', year: 2019 };
    const pairs: Array<[string, string, string]> = [
      ['dysphagia', 'Early screening for dysphagia after acute ischaemic stroke in a regional network', 'Early screening for dysphasia after acute ischaemic stroke in a regional network'],
      ['nephrotic', 'Ischaemic stroke in children with nephrotic syndrome: a national cohort study', 'Ischaemic stroke in children with nephritic syndrome: a national cohort study'],
      ['arthritis', 'Stroke risk in patients with arthritis of the knee treated with nonsteroidal drugs', 'Stroke risk in patients with arthrosis of the knee treated with nonsteroidal drugs'],
      ['colectomy', 'Perioperative stroke after emergency colectomy in patients over eighty years of age', 'Perioperative stroke after emergency colostomy in patients over eighty years of age'],
      ['thrombosis', 'Cerebral venous thrombosis in women taking oral contraceptives: a registry study', 'Cerebral venous thrombolysis in women taking oral contraceptives: a registry study'],
      ['prednisone', 'Oral prednisone for giant cell arteritis presenting with transient visual loss', 'Oral prednisolone for giant cell arteritis presenting with transient visual loss'],
      ['nitrate', 'Dietary nitrate supplementation and blood pressure after lacunar stroke', 'Dietary nitrite supplementation and blood pressure after lacunar stroke'],
      ['osteoblast', 'Osteoblast activity in paretic limbs during the first year after stroke', 'Osteoclast activity in paretic limbs during the first year after stroke'],
      ['lactose', 'Lactose intolerance in patients fed by nasogastric tube after stroke', 'Lactase intolerance in patients fed by nasogastric tube after stroke'],
      ['albuminuria', 'Albuminuria and recurrent stroke in patients with small vessel disease', 'Albuminemia and recurrent stroke in patients with small vessel disease'],
      ['neuropathy', 'Progression of diabetic neuropathy after minor stroke in a regional network', 'Progression of diabetic nephropathy after minor stroke in a regional network'],
      ['hepatology', 'Referral patterns to hepatology clinics after stroke in patients with abnormal blood tests', 'Referral patterns to haematology clinics after stroke in patients with abnormal blood tests'],
      ['myopathy', 'Statin-associated myopathy in older adults after ischaemic stroke: a cohort study', 'Statin-associated myelopathy in older adults after ischaemic stroke: a cohort study'],
      ['colposcopy', 'Stroke risk after colposcopy under general anaesthesia in a national cohort', 'Stroke risk after colonoscopy under general anaesthesia in a national cohort'],
      ['perioperative', 'Perioperative stroke in patients with atrial fibrillation undergoing hip fracture surgery', 'Preoperative stroke in patients with atrial fibrillation undergoing hip fracture surgery'],
    ];
    const set: Labelled[] = [];
    for (const [index, [work, first, second]] of pairs.entries()) {
      set.push(item(`${work}-1`, { ...base, title: first, pages: `${100 + index * 2}` }));
      set.push(item(`${work}-2`, { ...base, title: second, pages: null }));
    }
    // Real misspellings of the same abstracts still merge.
    set.push(item('dysphagia-1', { ...base, title: 'Early screening for dysphagia after acute ischaemic stroke in a regionnal network', pages: null }));
    set.push(item('thrombosis-1', { ...base, title: 'Cerebral venous thrombosis in women taking oral contraceptives: a registry studdy', pages: '108' }));
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(2);
  });

  it('when one title is the start of another by the same authors in the same volume, then they merge only where the pages agree', () => {
    const mgh = { authors: ['Scully, R. E.', 'Mark, E. J.', 'McNeely, W. F.', 'Ebeling, S. H.'], venue: 'New England Journal of Medicine', volume: '338', year: 1998 };
    const series = 'Case records of the Massachusetts General Hospital. Weekly clinicopathological exercises';
    const trial = { authors: ['Campbell, B. C. V.', 'Mitchell, P. J.', 'Churilov, L.'], venue: 'International Journal of Stroke', volume: '14', issue: '2 Suppl', year: 2019 };
    const main = 'Tenecteplase versus alteplase before thrombectomy for ischaemic stroke with large vessel occlusion';
    const set: Labelled[] = [
      item('case-12', { ...mgh, title: `${series}. Case 12-1998. A 64-year-old man with fever and a pulmonary nodule`, issue: '16', pages: '1132-1139' }),
      // Another case of the volume, its title cut after the series heading, without pages.
      item('case-19', { ...mgh, title: series }),
      item('main', { ...trial, title: main, pages: '12' }),
      item('age', { ...trial, title: `${main}: 90-day outcomes by age group` }),
      // The main abstract's copy under its title cut short, on the same page.
      item('main', { ...trial, title: `${main}: primary results of the EXTEND-IA TNK trial`, pages: '12' }),
      item('case-12', { ...mgh, title: `${series}. Case 12-1998`, issue: '16', pages: '1132-9' }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(2);
  });

  it('when a demo, poster or workshop paper carries a conference paper\'s title in the same year, then the companion volume keeps it apart while each one\'s copies merge', () => {
    const authors = ['Kim, Sunyoung', 'Paulos, Eric', 'Mankoff, Jennifer'];
    const chi = { title: 'inAir: sharing indoor air quality measurements and visualizations for household awareness', authors, year: 2016 };
    const www = { title: 'Recommending crowdsourced tasks to online workers by their past work histories', authors, year: 2020 };
    const icis = { title: 'Algorithmic control of platform workers and their resistance strategies', authors, year: 2018 };
    const set: Labelled[] = [
      item('chi-paper', { ...chi, venue: 'Proceedings of the 2016 CHI Conference on Human Factors in Computing Systems', pages: '1861-1870' }),
      item('chi-demo', { ...chi, venue: 'Proceedings of the 2016 CHI Conference Extended Abstracts on Human Factors in Computing Systems' }),
      item('www-paper', { ...www, venue: 'Proceedings of the Web Conference 2020' }),
      item('www-poster', { ...www, venue: 'Companion Proceedings of the Web Conference 2020', pages: '101-102' }),
      item('icis-paper', { ...icis, venue: 'International Conference on Information Systems' }),
      item('icis-workshop', { ...icis, venue: 'Pre-ICIS Workshop (International Conference on Information Systems)' }),
      // Each exported again under another form of its venue's name.
      item('chi-paper', { ...chi, venue: 'CHI Conference on Human Factors in Computing Systems', pages: '1861-1870' }),
      item('www-poster', { ...www, venue: 'Companion Proceedings of the Web Conference', pages: '101-102' }),
      item('icis-paper', { ...icis, venue: 'ICIS 2018 Proceedings' }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(3);
  });

  it('when a column with a short title runs in several issues and a record names no issue, then it stays apart from the issues that have one', () => {
    const column = { title: 'Notes on stroke research policy', authors: ['Hankey, G. J.'], year: 2019, venue: 'International Journal of Stroke', volume: '14' };
    const set: Labelled[] = [
      item('issue-3', { ...column, issue: '3', pages: '225-226' }),
      // An online-first record of another issue's column: no issue, no pages.
      item('issue-5', { ...column }),
      item('issue-7', { ...column, issue: '7' }),
      // Copies the pages place.
      item('issue-3', { ...column, title: 'Notes on stroke research policy.', issue: '3', pages: '225-6' }),
      item('issue-7', { ...column, issue: '7', pages: '701-702' }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(2);
  });

  it('when an export keeps only a journal series\' heading as the title, then items of one volume stay apart unless journal, volume and pages agree', () => {
    const nejm = { venue: 'New England Journal of Medicine', volume: '338', year: 1998 };
    const set: Labelled[] = [
      item('images-1132', { ...nejm, title: 'Images in clinical medicine', pages: '1132' }),
      item('images-1290', { ...nejm, title: 'Images in clinical medicine' }),
      item('cps-1', { ...nejm, title: 'Clinical problem-solving', authors: ['Saint, S.', 'Tierney, L. M.'], pages: '593-596' }),
      item('cps-2', { ...nejm, title: 'Clinical problem-solving', authors: ['Saint, S.', 'Tierney, L. M.'] }),
      // The same items exported again with their printed place.
      item('images-1132', { ...nejm, title: 'Images in Clinical Medicine.', venue: 'N Engl J Med', pages: '1132' }),
      item('cps-1', { ...nejm, title: 'Clinical Problem-Solving', authors: ['Saint S', 'Tierney LM'], venue: 'N Engl J Med', pages: '593-6' }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(2);
  });

  it('when every item of a conference or an article-numbered journal runs from page 1, then two papers by one author with similar titles on the same range stay apart', () => {
    const icis = { venue: 'International Conference on Information Systems', year: 2019, pages: '1-17' };
    const mdpi = { venue: 'Sustainability', volume: '12', year: 2020, pages: '1-15' };
    const tochi = { venue: 'ACM Transactions on Computer-Human Interaction', volume: '23', issue: '3', year: 2016, pages: '1--29', authors: ['Gould, S. J. J.', 'Cox, A. L.', 'Brumby, D. P.'] };
    const set: Labelled[] = [
      item('icis-qual', { ...icis, title: 'Algorithmic management of gig workers: a qualitative study of platform control', authors: ['Moehlmann, Mareike', 'Zalmanson, Lior'] }),
      item('icis-quant', { ...icis, title: 'Algorithmic management of gig workers: a quantitative study of platform control and resistance', authors: ['Moehlmann, Mareike', 'Henfridsson, Ola'] }),
      item('mdpi-id', { ...mdpi, title: 'Platform work and sustainable livelihoods in Indonesia: evidence from ride-hailing drivers', authors: ['Nugroho, A.', 'Sari, D.'] }),
      item('mdpi-vn', { ...mdpi, title: 'Platform work and sustainable livelihoods in Vietnam: evidence from ride-hailing drivers', authors: ['Nugroho, A.', 'Tran, B.'] }),
      // An article-numbered journal's article under its main title only, in the same issue by the same authors.
      item('tochi', { ...tochi, title: 'Diminished control in crowdsourcing: an investigation of crowdworker multitasking behavior' }),
      item('tochi', { ...tochi, title: 'Diminished Control in Crowdsourcing', authors: ['Gould, Sandy J. J.', 'Cox, Anna L.', 'Brumby, Duncan P.'] }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(1);
  });

  it('when the authors\' reply is printed under the article\'s title in a later issue of the volume and exported without pages, then it stays apart from the article', () => {
    const article = { title: 'Dabigatran versus warfarin in patients with atrial fibrillation', venue: 'New England Journal of Medicine', volume: '361', year: 2009 };
    const set: Labelled[] = [
      item('article', { ...article, authors: ['Connolly, S. J.', 'Ezekowitz, M. D.', 'Yusuf, S.', 'Eikelboom, J.'], issue: '12', pages: '1139-1151' }),
      item('reply', { ...article, authors: ['Connolly, S. J.', 'Ezekowitz, M. D.', 'Yusuf, S.'], issue: '27' }),
      // The article again, one export without its pages.
      item('article', { ...article, title: `${article.title}.`, venue: 'N Engl J Med', authors: ['Connolly SJ', 'Ezekowitz MD', 'Yusuf S', 'Eikelboom J'], issue: '12' }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(1);
  });

  it('when a record lacking the year matches two versions of a Cochrane review, then it joins at most one and never chains them into one group', () => {
    const cochrane = { title: 'Antiplatelet agents for preventing thrombosis after peripheral arterial bypass surgery', authors: ['Bedenis, R.', 'Lethaby, A.', 'Maxwell, H.'], venue: 'Cochrane Database of Systematic Reviews', pages: 'CD000535' };
    const set: Labelled[] = [
      item('review-2014', { ...cochrane, year: 2014, issue: '4' }),
      // Without its year: the 2014 review or the 2015 update, nothing tells.
      item('review-?', { ...cochrane, year: null }),
      item('review-2015', { ...cochrane, year: 2015, issue: '2' }),
      // Another review under its own title, exported twice.
      item('other', { ...cochrane, title: 'Antithrombotic agents for preventing thrombosis after infrainguinal arterial bypass surgery', pages: 'CD000536', year: 2015, issue: '2' }),
      item('other', { ...cochrane, title: 'Antithrombotic agents for preventing thrombosis after infrainguinal arterial bypass surgery.', pages: 'CD000536', year: 2015, issue: '2' }),
    ];
    const workOf = new Map(set.map((entry) => [entry.record.id, entry.work]));
    for (const seed of [0, 1, 2, 3, 4, 5]) {
      const ordered = seed === 0 ? set.map((entry) => entry.record) : seededShuffle(set.map((entry) => entry.record), seed);
      const { decisions } = replayStream(ordered);
      // Each group's members, by the work they are labelled with: the dated versions never share one.
      const groups = new Map<string, Set<string>>();
      for (const record of ordered) {
        const decision = decisions.get(record.id);
        const group = decision?.determination === 'duplicate' && decision.canonicalId !== null ? decision.canonicalId : record.id;
        if (!groups.has(group)) groups.set(group, new Set());
        groups.get(group)?.add(workOf.get(record.id) ?? '');
      }
      for (const works of groups.values()) {
        expect([...works].filter((work) => !work.endsWith('?')).length).toBeLessThanOrEqual(1);
      }
    }
  });

  it('when the same presenters give a tutorial under one title at consecutive editions of a conference, then the editions stay apart while one edition\'s copies merge', () => {
    const tutorial = { title: 'Crowdsourcing and human computation for social good: a tutorial', authors: ['Lasecki, Walter S.', 'Bigham, Jeffrey P.'] };
    const set: Labelled[] = [
      item('hcomp-2018', { ...tutorial, year: 2018, venue: 'Proceedings of the Sixth AAAI Conference on Human Computation and Crowdsourcing' }),
      item('hcomp-2019', { ...tutorial, year: 2019, venue: 'Proceedings of the Seventh AAAI Conference on Human Computation and Crowdsourcing' }),
      item('chi-2018', { ...tutorial, title: 'Designing crowd work for people with disabilities: a course', year: 2018, venue: 'Proceedings of the 2018 CHI Conference on Human Factors in Computing Systems' }),
      item('chi-2019', { ...tutorial, title: 'Designing crowd work for people with disabilities: a course', year: 2019, venue: 'Proceedings of the 2019 CHI Conference on Human Factors in Computing Systems' }),
      // The 2019 tutorial again, under the series name without its edition, dated a year later by the index.
      item('hcomp-2019', { ...tutorial, year: 2020, venue: 'AAAI Conference on Human Computation and Crowdsourcing' }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(1);
  });

  it('when companion abstracts differ only by a decimal point in a dose or a follow-up time, then they stay apart while the Lancet\'s middle dot still reads as a point', () => {
    const base = { authors: ['Mackie, S. L.', 'Dejaco, C.', 'Dasgupta, B.'], venue: 'Rheumatology', volume: '58', issue: 'Suppl 3', year: 2019 };
    const set: Labelled[] = [
      item('2.5', { ...base, title: 'Prednisolone 2.5 mg daily for relapsing giant cell arteritis after ischaemic stroke', pages: '101' }),
      item('25', { ...base, title: 'Prednisolone 25 mg daily for relapsing giant cell arteritis after ischaemic stroke' }),
      item('7.5', { ...base, title: 'Stroke after a 7.5-year follow-up of patients with giant cell arteritis', pages: '102' }),
      item('75', { ...base, title: 'Stroke after a 75-year follow-up of patients with giant cell arteritis' }),
      // Copies with the Lancet's decimal point and with thousands written two ways.
      item('2.5', { ...base, title: 'Prednisolone 2\u00b75 mg daily for relapsing giant cell arteritis after ischaemic stroke', pages: '101' }),
      item('10000', { ...base, title: 'Giant cell arteritis among 10 000 patients with ischaemic stroke', pages: '103' }),
      item('10000', { ...base, title: 'Giant cell arteritis among 10,000 patients with ischaemic stroke', pages: '103' }),
    ];
    const { falseMerges, trueMerges } = replay(set);
    expect(falseMerges).toEqual([]);
    expect(trueMerges).toBe(2);
  });
});
