export { createTestMessagingNamespace, TEST_AMQP_URL, type TestMessagingNamespace } from './messaging-namespace';
export { startTestInfrastructure, type TestInfrastructure } from './test-infrastructure';
export { observeEvents, type EventObserver } from './event-observer';
export { waitFor } from './wait-for';
export { freePort } from './free-port';
