/** What every devstack stand-in returns when started from code. */
export interface RunningStandIn {
  /** Base URL clients use (mongodb://…, http://…). */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

export interface StandInOptions {
  /** 0 picks a free port. */
  port: number;
  /** Folder for durable data; omitted means in memory. */
  dataDir?: string;
  host?: string;
}
