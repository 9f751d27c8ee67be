import { trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/** Structured JSON logs; every line written inside a span carries its trace and span ids. */
export function createLogger(options: { service: string; level?: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      name: options.service,
      level: options.level ?? 'info',
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const span = trace.getActiveSpan();
        if (!span) return {};
        const context = span.spanContext();
        return { trace_id: context.traceId, span_id: context.spanId };
      },
    },
    options.destination,
  );
}
