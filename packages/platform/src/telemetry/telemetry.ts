import { diag, DiagLogLevel } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { AmqplibInstrumentation } from '@opentelemetry/instrumentation-amqplib';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface TelemetryOptions {
  service: string;
  /** Export spans over OTLP/HTTP. Without it spans still exist, so trace ids propagate and are logged. */
  exportEnabled: boolean;
  otlpEndpoint?: string;
}

export interface Telemetry {
  shutdown(): Promise<void>;
}

let started: Telemetry | undefined;

/**
 * Must run before express, grpc, amqplib or mongodb are first required, so the
 * instrumentations can patch them: each service's entry file imports its telemetry bootstrap first.
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  if (started) return started;
  // An unreachable collector must not flood the logs: exporter errors are dropped quietly.
  diag.setLogger({ error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined, verbose: () => undefined }, DiagLogLevel.NONE);
  // NodeSDK otherwise configures OTLP exporters from the environment on its own.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  if (!options.exportEnabled) process.env.OTEL_TRACES_EXPORTER ??= 'none';
  // Without a collector, spans are still made and propagated (a processor that drops them), so
  // every log line carries a real trace id; with no processor NodeSDK registers no tracer at all.
  const spanProcessors: SpanProcessor[] = [new NoopSpanProcessor()];
  if (options.exportEnabled) {
    const exporter = new OTLPTraceExporter({ url: `${(options.otlpEndpoint ?? 'http://127.0.0.1:4318').replace(/\/$/, '')}/v1/traces`, timeoutMillis: 2000 });
    spanProcessors[0] = new BatchSpanProcessor(exporter, { exportTimeoutMillis: 2000 });
  }
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ 'service.name': options.service }),
    spanProcessors,
    metricReaders: [],
    logRecordProcessors: [],
    // The hops that carry a trace (HTTP, gRPC, AMQP) always; the spans only a collector would show
    // (express middleware, each database command) only when they are exported.
    instrumentations: [
      new HttpInstrumentation(),
      new GrpcInstrumentation(),
      new AmqplibInstrumentation(),
      ...(options.exportEnabled
        ? [
            new ExpressInstrumentation(),
            // The default statement serializer walks every command (large bulk writes included) on
            // each call; the command and collection name are what a trace needs.
            new MongoDBInstrumentation({ dbStatementSerializer: (command) => JSON.stringify(Object.fromEntries(Object.entries(command).slice(0, 1))) }),
          ]
        : []),
    ],
  });
  sdk.start();
  started = {
    // Shutdown flushes spans; bounded so a missing collector never holds a stopping process.
    shutdown: async () => {
      await Promise.race([sdk.shutdown().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1500).unref())]);
    },
  };
  return started;
}

/** Telemetry configured from OTEL_ENABLED and OTEL_EXPORTER_OTLP_ENDPOINT, read before anything else loads. */
export function startTelemetryFromEnvironment(service: string, env: NodeJS.ProcessEnv = process.env): Telemetry {
  return startTelemetry({
    service,
    exportEnabled: ['true', '1', 'yes', 'on'].includes((env.OTEL_ENABLED ?? '').toLowerCase()),
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
}
