// Messages between a service thread's bus and the launcher's in-process bus, over one MessagePort.
import type { ConsumeOptions, HandlerOutcome, MessageMetadata, MessagingTopology, PublishOptions } from './message-bus';

export type ThreadBusRequest =
  | { kind: 'declare'; id: number; topology: MessagingTopology }
  | { kind: 'delete'; id: number; topology: MessagingTopology }
  /** `content` is the message's JSON bytes, encoded on the publishing thread. */
  | { kind: 'publish'; id: number; exchange: string; routingKey: string; content: Uint8Array; options: PublishOptions }
  | { kind: 'send'; id: number; queue: string; content: Uint8Array; options: PublishOptions }
  | { kind: 'consume'; id: number; consumerId: number; queue: string; options: ConsumeOptions | undefined }
  | { kind: 'stop-consumer'; id: number; consumerId: number }
  | { kind: 'close'; id: number }
  /** The handler's outcome for a delivery, or the message it failed with (the host retries it). */
  | { kind: 'outcome'; deliveryId: number; outcome: HandlerOutcome | null; failure: string | null };

export interface ThreadBusFailure {
  name: string;
  message: string;
  target?: string;
}

export type ThreadBusReply =
  | { kind: 'reply'; id: number; failure: ThreadBusFailure | null }
  | { kind: 'deliver'; consumerId: number; deliveryId: number; message: unknown; metadata: MessageMetadata };
