import { applyDecisionRules, decideDuplicate, isSearchable, nonCanonicalTargetError, SELF_DUPLICATE_ERROR, type ActiveDecision, type ProposedDecision } from './decide';
import { dedupRecord } from './record.fixture';

const record = dedupRecord;

describe('isSearchable', () => {
  it('when a record has a title and authors, year or journal, then it is searchable', () => {
    expect(isSearchable(record())).toBe(true);
    expect(isSearchable(record({ authors: [], venue: null }))).toBe(true);
  });

  it('when a record has no title, then it is unsearchable unless it has a DOI', () => {
    expect(isSearchable(record({ title: null }))).toBe(false);
    expect(isSearchable(record({ title: null, doi: '10.1000/x' }))).toBe(true);
  });

  it('when a record has only a title, then it is unsearchable', () => {
    expect(isSearchable(record({ authors: [], year: null, venue: null }))).toBe(false);
  });
});

describe('decideDuplicate', () => {
  it('when exactly one candidate is a duplicate, then the record is its duplicate', () => {
    const canonical = record();
    const other = record({ title: 'An unrelated study of platelet counts in dialysis', pages: '36-44' });
    const decision = decideDuplicate(record(), [other, canonical]);
    expect(decision).toMatchObject({ determination: 'duplicate', canonicalId: canonical.id, candidateIds: [canonical.id] });
    expect(decision.detail).toMatch(/rule A/);
  });

  it('when several candidates are duplicates, then the decision is decoupled for review and names them', () => {
    const first = record();
    const second = record();
    const decision = decideDuplicate(record(), [first, second]);
    expect(decision.determination).toBe('decoupled');
    expect(decision.canonicalId).toBeNull();
    expect([...decision.candidateIds].sort()).toEqual([first.id, second.id].sort());
  });

  it('when one candidate describes the same item and another is only its named erratum, then the same item wins; alone, the erratum decides', () => {
    const original = 'Long-term effect of the complement inhibitor eculizumab on kidney function in paroxysmal nocturnal hemoglobinuria';
    const base = { venue: 'American Journal of Hematology', volume: '85' };
    const withNote = record({ ...base, title: `${original}.[Erratum appears in Am J Hematol. 2010 Nov;85(11):911]`, issue: '8', pages: '553-559' });
    const sameArticle = record({ ...base, title: original, issue: '8', pages: '553-559' });
    const erratum = record({ ...base, title: `Erratum: ${original}`, issue: '11', pages: '911' });
    expect(decideDuplicate(withNote, [erratum, sameArticle])).toMatchObject({ determination: 'duplicate', canonicalId: sameArticle.id, candidateIds: [sameArticle.id, erratum.id] });
    expect(decideDuplicate(withNote, [erratum])).toMatchObject({ determination: 'duplicate', canonicalId: erratum.id });
  });

  it('when no candidate is a duplicate, then the searchable record is canonical', () => {
    const decision = decideDuplicate(record(), [record({ title: 'An unrelated study of platelet counts in dialysis', pages: '36-44' })]);
    expect(decision).toMatchObject({ determination: 'canonical', canonicalId: null, candidateIds: [] });
  });

  it('when there are no candidates at all, then the record is canonical', () => {
    expect(decideDuplicate(record(), []).determination).toBe('canonical');
  });

  it('when a candidate is only uncertain, then the record is canonical and the candidate is named for review', () => {
    const possible = record({ venue: 'Molecular Immunology', volume: null, pages: '1684' });
    const decision = decideDuplicate(record({ volume: null, pages: '1662' }), [possible]);
    expect(decision).toMatchObject({ determination: 'canonical', candidateIds: [possible.id] });
    expect(decision.detail).toMatch(/Possible duplicates for review/);
  });

  it('when the record lacks the metadata to match, then unsearchable even if a candidate agrees on everything else', () => {
    const candidate = record();
    const decision = decideDuplicate(record({ title: null }), [candidate]);
    expect(decision).toMatchObject({ determination: 'unsearchable', canonicalId: null, candidateIds: [candidate.id] });
  });

  it('when the record itself is among the candidates, then it is ignored', () => {
    const self = record();
    expect(decideDuplicate(self, [self]).determination).toBe('canonical');
  });

  it('when the candidates come in another order, then the decision is the same', () => {
    const a = record();
    const b = record({ title: 'An unrelated study of platelet counts in dialysis', pages: '36-44' });
    const c = record();
    const subject = record();
    expect(decideDuplicate(subject, [a, b, c])).toEqual(decideDuplicate(subject, [c, b, a]));
  });
});

describe('decideDuplicate with group members', () => {
  const original = 'Long-term effect of the complement inhibitor eculizumab on kidney function in paroxysmal nocturnal hemoglobinuria';
  const base = { venue: 'American Journal of Hematology', volume: '85' };

  it('when only a duplicate of a group names the record, then the record joins that group under its canonical', () => {
    // The article is canonical; its second record (a duplicate) carries the erratum note; the erratum arrives last.
    const article = record({ ...base, title: original, issue: '8', pages: '553-559' });
    const withNote = record({ ...base, title: `${original}.[Erratum appears in Am J Hematol. 2010 Nov;85(11):911]`, issue: '8', pages: '553-559' });
    const erratum = record({ ...base, title: `Erratum: ${original}`, issue: '11', pages: '911' });
    expect(decideDuplicate(erratum, [article]).determination).toBe('canonical');
    const decision = decideDuplicate(erratum, [{ record: article, canonical: article }, { record: withNote, canonical: article }]);
    expect(decision).toMatchObject({ determination: 'duplicate', canonicalId: article.id, candidateIds: [article.id] });
    expect(decision.detail).toContain(`${article.id} through its duplicate ${withNote.id}`);
  });

  it('when two members of one group match, then the record is a duplicate of that group, not a case for review', () => {
    const canonical = record();
    const member = record();
    expect(decideDuplicate(record(), [{ record: member, canonical }, { record: canonical, canonical }])).toMatchObject({ determination: 'duplicate', canonicalId: canonical.id, candidateIds: [canonical.id] });
  });

  it('when a member matches but another member of its group is another year of the title, then the record stays apart and the group is named for review', () => {
    const canonical = record({ year: 2014 });
    const undated = record({ year: null });
    const decision = decideDuplicate(record({ year: 2016 }), [{ record: undated, canonical }, { record: canonical, canonical }]);
    expect(decision).toMatchObject({ determination: 'canonical', candidateIds: [canonical.id] });
    expect(decision.detail).toContain(`${canonical.id} through its duplicate ${undated.id}`);
  });

  it('when members of two groups match, then the decision is decoupled and names both canonicals', () => {
    const first = record();
    const second = record();
    const decision = decideDuplicate(record(), [{ record: record(), canonical: first }, { record: record(), canonical: second }]);
    expect(decision.determination).toBe('decoupled');
    expect([...decision.candidateIds].sort()).toEqual([first.id, second.id].sort());
  });

  it("when a duplicate matches but the group's canonical carries another DOI, then the record stays apart", () => {
    const canonical = record({ doi: '10.1000/one' });
    const member = record();
    const incoming = record({ doi: '10.1000/two' });
    expect(decideDuplicate(incoming, [{ record: member, canonical }])).toMatchObject({ determination: 'canonical', candidateIds: [] });
    expect(decideDuplicate(record({ doi: '10.1000/ONE' }), [{ record: member, canonical }])).toMatchObject({ determination: 'duplicate', canonicalId: canonical.id });
  });

  it('when a canonical is decided again, then its own duplicates are no candidates', () => {
    const canonical = record();
    expect(decideDuplicate(canonical, [{ record: record(), canonical }]).determination).toBe('canonical');
  });
});

describe('applyDecisionRules (§15.4)', () => {
  const system = (determination: ProposedDecision['determination'], canonicalId: string | null = null): ProposedDecision => ({ determination, canonicalId, authority: 'system' });
  const person = (determination: ProposedDecision['determination'], canonicalId: string | null = null): ProposedDecision => ({ determination, canonicalId, authority: 'person' });
  const active = (determination: ActiveDecision['determination'], canonicalId: string | null, authority: ActiveDecision['authority'] = 'system'): ActiveDecision => ({ determination, canonicalId, authority });
  const base = { referenceId: 'x', current: null, referenceHasDuplicates: false, canonicalTargetDetermination: 'canonical', manual: false };

  it('when a reference is proposed as a duplicate of itself, then it is refused with the contract text', () => {
    expect(applyDecisionRules({ ...base, proposed: person('duplicate', 'x'), manual: true })).toEqual({ outcome: 'error', changed: false, error: SELF_DUPLICATE_ERROR });
    expect(SELF_DUPLICATE_ERROR).toBe('Cannot mark a reference as a duplicate of itself.');
  });

  it('when the named canonical is not canonical, then it is refused naming its determination', () => {
    const result = applyDecisionRules({ ...base, proposed: system('duplicate', 'c'), canonicalTargetDetermination: 'duplicate' });
    expect(result).toEqual({ outcome: 'error', changed: false, error: 'Cannot mark as duplicate of a non-canonical reference. Reference c has active determination: duplicate.' });
    expect(applyDecisionRules({ ...base, proposed: system('duplicate', 'c'), canonicalTargetDetermination: null }).error).toBe(nonCanonicalTargetError('c', null));
    expect(nonCanonicalTargetError('c', null)).toMatch(/active determination: none\.$/);
  });

  it('when there is no active decision, then the proposal activates and counts as a change', () => {
    expect(applyDecisionRules({ ...base, proposed: system('canonical') })).toEqual({ outcome: 'activate', changed: true });
    expect(applyDecisionRules({ ...base, proposed: system('duplicate', 'c') })).toEqual({ outcome: 'activate', changed: true });
  });

  it('when a person made the active decision and the system proposes, then decoupled even if identical', () => {
    for (const proposed of [system('canonical'), system('duplicate', 'c')]) {
      expect(applyDecisionRules({ ...base, current: active('canonical', null, 'person'), proposed })).toEqual({
        outcome: 'decoupled',
        changed: false,
        reason: `Decouple reason: Automatic decisions cannot replace a person-made active decision. Proposed determination: ${proposed.determination}.`,
      });
    }
  });

  it('when a person proposes over a person or the system, then the proposal activates', () => {
    expect(applyDecisionRules({ ...base, current: active('canonical', null, 'person'), proposed: person('canonical'), manual: true })).toEqual({ outcome: 'activate', changed: false });
    expect(applyDecisionRules({ ...base, current: active('canonical', null, 'system'), proposed: person('duplicate', 'c'), manual: true })).toEqual({ outcome: 'activate', changed: true });
  });

  it('when an active duplicate would become canonical or move to another canonical, then decoupled', () => {
    expect(applyDecisionRules({ ...base, current: active('duplicate', 'c'), proposed: system('canonical') })).toMatchObject({ outcome: 'decoupled', changed: false });
    expect(applyDecisionRules({ ...base, current: active('duplicate', 'c'), proposed: system('duplicate', 'd') })).toMatchObject({ outcome: 'decoupled', changed: false });
  });

  it('when the manual endpoint moves a duplicate, then checks a and b are bypassed', () => {
    expect(applyDecisionRules({ ...base, current: active('duplicate', 'c', 'person'), proposed: person('duplicate', 'd'), manual: true })).toEqual({ outcome: 'activate', changed: true });
    expect(applyDecisionRules({ ...base, current: active('duplicate', 'c'), proposed: person('canonical'), manual: true })).toEqual({ outcome: 'activate', changed: true });
  });

  it('when the same duplicate decision is proposed again, then it activates without a change', () => {
    expect(applyDecisionRules({ ...base, current: active('duplicate', 'c'), proposed: system('duplicate', 'c') })).toEqual({ outcome: 'activate', changed: false });
  });

  it('when a reference that has duplicates is proposed as a duplicate, then decoupled, for the manual endpoint too', () => {
    for (const manual of [false, true]) {
      expect(applyDecisionRules({ ...base, proposed: person('duplicate', 'c'), referenceHasDuplicates: true, manual })).toEqual({
        outcome: 'decoupled',
        changed: false,
        reason: 'Decouple reason: Reference has existing duplicates and cannot become a duplicate itself. Remap existing duplicates before retrying.',
      });
    }
  });

  it('when the engine proposes decoupled, then it is stored as decoupled and the active decision stays', () => {
    expect(applyDecisionRules({ ...base, current: active('canonical', null), proposed: system('decoupled') })).toMatchObject({ outcome: 'decoupled', changed: false });
  });

  it('when a duplicate is proposed without a canonical, then it is refused', () => {
    expect(applyDecisionRules({ ...base, proposed: system('duplicate', null) }).outcome).toBe('error');
  });

  it('when an unsearchable or canonical reference is proposed as canonical, then it activates and changes only if the determination differs', () => {
    expect(applyDecisionRules({ ...base, current: active('unsearchable', null), proposed: system('canonical') })).toEqual({ outcome: 'activate', changed: true });
    expect(applyDecisionRules({ ...base, current: active('canonical', null), proposed: system('canonical') })).toEqual({ outcome: 'activate', changed: false });
  });
});
