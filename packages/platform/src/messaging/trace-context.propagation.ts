import { context, propagation, ROOT_CONTEXT, type Context, type TextMapGetter } from '@opentelemetry/api';

// AMQP header values arrive as strings, numbers or Buffers depending on the encoding the
// publisher chose, so the getter normalises them to the strings propagators expect.
const headerGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    if (typeof value === 'string') return value;
    if (Buffer.isBuffer(value)) return value.toString('utf8');
    return undefined;
  },
};

/** Headers carrying the active trace context (W3C traceparent with the usual propagator). */
export function injectTraceContext(headers: Record<string, unknown>): Record<string, unknown> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return { ...headers, ...carrier };
}

export function extractTraceContext(headers: Record<string, unknown>): Context {
  return propagation.extract(ROOT_CONTEXT, headers, headerGetter);
}

/** Runs `work` inside the trace context that a message's headers carry. */
export function runInTraceContextOf<T>(headers: Record<string, unknown>, work: () => T): T {
  return context.with(extractTraceContext(headers), work);
}
