export { createTestMessagingNamespace, TEST_AMQP_URL, type TestMessagingNamespace } from './messaging-namespace';
