import { queueDeclarations, queueTypeForServer } from './amqp.topology';

describe('amqp topology', () => {
  it.each([
    ['3.10.8', 'quorum'],
    ['3.13.0', 'quorum'],
    ['4.1.2', 'quorum'],
    ['3.9.29', 'classic'],
    ['3.8.0', 'classic'],
    [undefined, 'classic'],
    [Buffer.from('3.12.1'), 'quorum'],
  ])('when the server reports version %p, then queues are %p', (version, expected) => {
    expect(queueTypeForServer(version)).toBe(expected);
  });

  it('when quorum queues are used, then the work queue dead-letters to .dead at least once and the retry queue dead-letters back to the work queue', () => {
    const [dead, retry, work] = queueDeclarations('imports', 'quorum');
    expect(dead).toEqual({ name: 'imports.dead', arguments: { 'x-queue-type': 'quorum' } });
    expect(retry.name).toBe('imports.retry');
    expect(retry.arguments).toMatchObject({ 'x-queue-type': 'quorum', 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'imports', 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' });
    expect(work.name).toBe('imports');
    expect(work.arguments).toMatchObject({ 'x-queue-type': 'quorum', 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'imports.dead', 'x-delivery-limit': 20 });
  });

  it('when classic queues are used, then only the portable dead-letter arguments are set', () => {
    const [dead, retry, work] = queueDeclarations('imports', 'classic');
    expect(dead.arguments).toEqual({});
    expect(retry.arguments).toEqual({ 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'imports' });
    expect(work.arguments).toEqual({ 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'imports.dead' });
  });
});
