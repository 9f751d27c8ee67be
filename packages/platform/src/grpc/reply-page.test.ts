import { replyPage } from './reply-page';

describe('replyPage', () => {
  it('when the texts outgrow the budget, then the page stops at the first text that reaches it and says more are left', async () => {
    const page = await replyPage(['aaaa', 'bbbb', 'cccc', 'dddd'], (item) => item, 6);
    expect(page).toEqual({ texts: ['aaaa', 'bbbb'], taken: 2, last: 'bbbb', more: true });
  });

  it('when one item alone is past the budget, then it still goes out, alone', async () => {
    expect(await replyPage(['x'.repeat(10), 'y'], (item) => item, 4)).toEqual({ texts: ['x'.repeat(10)], taken: 1, last: 'x'.repeat(10), more: true });
  });

  it('when everything fits, then the page holds it all and says nothing is left; skipped items count as taken but are not last', async () => {
    async function* rows() {
      yield { id: 1, text: 'a' };
      yield { id: 2, text: null };
    }
    expect(await replyPage(rows(), async (row) => row.text, 100)).toEqual({ texts: ['a'], taken: 2, last: { id: 1, text: 'a' }, more: false });
    expect(await replyPage([], (item: string) => item, 100)).toEqual({ texts: [], taken: 0, last: undefined, more: false });
  });
});
