// oidc-provider ships no type declarations; this covers only what the identity stand-in uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContextWithOIDC {
    body: unknown;
    type: string;
    status: number;
    oidc: { client?: ClientModel; params?: Record<string, unknown> };
  }

  export interface ClientModel {
    clientId: string;
    clientAuthMethod: string;
    redirectUriAllowed(this: ClientModel, value: string): boolean;
  }

  export interface TokenModel {
    kind: string;
    clientId?: string;
    accountId?: string;
  }

  export interface GrantModel {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string };
    grantId?: string;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  export type Configuration = Record<string, unknown>;

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
    SessionNotFound: new (description?: string) => Error;
  };

  export class Provider {
    constructor(issuer: string, configuration: Configuration);
    readonly issuer: string;
    Client: { prototype: ClientModel };
    Grant: {
      new (properties: { accountId: string; clientId: string }): GrantModel;
      find(id: string): Promise<GrantModel | undefined>;
    };
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}

declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  export function createMemoryAdapter(clockTolerance?: number): (model: string) => unknown;
}
