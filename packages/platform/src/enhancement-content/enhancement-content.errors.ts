/**
 * The enhancement cannot be stored as given (bad full text, invalid linked data). Its message is
 * what the import result or the robot's validation file says; anything else thrown by this
 * module is an infrastructure failure the caller retries.
 */
export class EnhancementContentRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnhancementContentRejected';
  }
}
