import { outcomeOfRobotAnswer } from './robot-answer';

const ROBOT = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';
const answer = (status: number, text = '') => ({ status, body: Buffer.from(text, 'utf8') });

describe('outcomeOfRobotAnswer', () => {
  it('when the robot answers 202, then the request is accepted', () => {
    expect(outcomeOfRobotAnswer(ROBOT, answer(202, 'ignored'))).toEqual({ status: 'accepted' });
  });

  it('when there is no answer or a 5xx, then the request failed with the contract message', () => {
    for (const outcome of [outcomeOfRobotAnswer(ROBOT, null), outcomeOfRobotAnswer(ROBOT, answer(500)), outcomeOfRobotAnswer(ROBOT, answer(503, 'busy'))]) {
      expect(outcome).toEqual({ status: 'failed', error: `Cannot request enhancement from Robot ${ROBOT}.` });
    }
  });

  it('when the robot answers any other status (200 included), then the request is rejected with its body text', () => {
    expect(outcomeOfRobotAnswer(ROBOT, answer(200, 'ok?'))).toEqual({ status: 'rejected', error: 'ok?' });
    expect(outcomeOfRobotAnswer(ROBOT, answer(404, 'Not Found'))).toEqual({ status: 'rejected', error: 'Not Found' });
    expect(outcomeOfRobotAnswer(ROBOT, answer(422, '{"detail":"bad"}'))).toEqual({ status: 'rejected', error: '{"detail":"bad"}' });
  });
});
