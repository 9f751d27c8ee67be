// How a robot's answer to a single enhancement request sets the request's status (§14.3 step 4).

export type RobotCallOutcome = { status: 'accepted' } | { status: 'failed' | 'rejected'; error: string };

/** 202 accepts; no answer or 5xx fails; any other status rejects with the robot's body text. */
export function outcomeOfRobotAnswer(robotId: string, answer: { status: number; body: Buffer } | null): RobotCallOutcome {
  if (answer === null || answer.status >= 500) return { status: 'failed', error: `Cannot request enhancement from Robot ${robotId}.` };
  if (answer.status === 202) return { status: 'accepted' };
  return { status: 'rejected', error: answer.body.toString('utf8') };
}
