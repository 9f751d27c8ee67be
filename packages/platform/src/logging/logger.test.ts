import { Writable } from 'node:stream';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { createLogger } from './logger';

describe('logger', () => {
  it('when a line is logged inside a span, then it carries the trace and span ids; outside, it does not', () => {
    const lines: Array<Record<string, unknown>> = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(JSON.parse(chunk.toString()));
        callback();
      },
    });
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    const tracer = new BasicTracerProvider().getTracer('test');
    const logger = createLogger({ service: 'test-service', destination });
    logger.info('outside');
    const span = tracer.startSpan('work');
    context.with(trace.setSpan(context.active(), span), () => logger.info('inside'));
    span.end();
    expect(lines[0]).toMatchObject({ service: 'test-service', level: 'info', msg: 'outside' });
    expect(lines[0].trace_id).toBeUndefined();
    expect(lines[1]).toMatchObject({ msg: 'inside', trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId });
    context.disable();
  });
});
