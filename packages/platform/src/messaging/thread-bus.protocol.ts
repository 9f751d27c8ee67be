// Messages between a service thread's bus and the launcher's in-process bus, over one MessagePort.
import type { ConsumeOptions, HandlerOutcome, MessageMetadata, MessagingTopology, PublishOptions } from './message-bus';

export type ThreadBusRequest =
  | { kind: 'declare'; id: number; topology: MessagingTopology }
  | { kind: 'delete'; id: number; topology: MessagingTopology }
  /** Every message the thread published in one turn of its event loop, answered by one `replies`. */
  | { kind: 'publish-many'; id: number; messages: ThreadBusPublication[] }
  | { kind: 'consume'; id: number; consumerId: number; queue: string; options: ConsumeOptions | undefined }
  | { kind: 'stop-consumer'; id: number; consumerId: number }
  | { kind: 'close'; id: number }
  /** The handler's outcome for a delivery, or the message it failed with (the host retries it). */
  | { kind: 'outcome'; deliveryId: number; outcome: HandlerOutcome | null; failure: string | null };

/** A message to an exchange or straight to a queue; `content` is its JSON bytes, encoded on the publishing thread. */
export type ThreadBusPublication =
  | { target: 'exchange'; exchange: string; routingKey: string; content: Uint8Array; options: PublishOptions }
  | { target: 'queue'; queue: string; content: Uint8Array; options: PublishOptions };

export interface ThreadBusFailure {
  name: string;
  message: string;
  target?: string;
}

export type ThreadBusReply =
  | { kind: 'reply'; id: number; failure: ThreadBusFailure | null }
  /** One outcome per message of a `publish-many`, in its order. */
  | { kind: 'replies'; id: number; failures: Array<ThreadBusFailure | null> }
  | { kind: 'deliver'; consumerId: number; deliveryId: number; message: unknown; metadata: MessageMetadata };
