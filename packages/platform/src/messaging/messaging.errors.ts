/** A publish that got no broker confirm (including time spent waiting for a reconnection) in time. */
export class PublishTimeoutError extends Error {
  constructor(
    readonly target: string,
    readonly timeoutMs: number,
  ) {
    super(`Publishing to ${target} was not confirmed within ${timeoutMs} ms`);
    this.name = 'PublishTimeoutError';
  }
}

/** A message sent to a queue or exchange that does not exist, so no queue would hold it. */
export class UnroutableMessageError extends Error {
  constructor(readonly target: string) {
    super(`No queue or exchange named ${target} to route the message to`);
    this.name = 'UnroutableMessageError';
  }
}

/** The broker refused the message (negative confirm) or the channel was closed for an error. */
export class PublishRejectedError extends Error {
  constructor(
    readonly target: string,
    reason: string,
  ) {
    super(`The broker rejected the message for ${target}: ${reason}`);
    this.name = 'PublishRejectedError';
  }
}

/** An operation on a bus that has been closed. */
export class MessageBusClosedError extends Error {
  constructor(name: string) {
    super(`Message bus ${name} is closed`);
    this.name = 'MessageBusClosedError';
  }
}
