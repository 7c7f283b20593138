/** The contract every local service manager fulfils, plus the shared output format. */

export type ServiceName = "postgres" | "redis" | "s3" | "smtp";

export interface StartResult {
  /** "started" when we launched it now, "running" when a copy of ours was already up. */
  state: "started" | "running";
  url: string;
  notes?: string[];
}

export interface StatusResult {
  state: "running" | "stopped";
  url: string;
  notes?: string[];
}

export interface LocalService {
  name: ServiceName;
  /** When this variable is set the service is external: we only wait for it and prepare it. */
  envVar: string;
  /** The URL of our local instance; the env var set to exactly this still means "run it locally". */
  localUrl: string;
  /** What the environment names instead of the local instance, when the env var is not a URL (SMTP_HOST). */
  externalTarget?: () => string | undefined;
  start(): Promise<StartResult>;
  /** Waits until the external service answers, then creates what the app needs (database, bucket). */
  prepareExternal(url: string): Promise<void>;
  /** Returns false when there was nothing of ours to stop. */
  stop(): Promise<boolean>;
  status(): Promise<StatusResult>;
}

/** A failure worth a clean message: names the service and carries the tail of its log. */
export class ServiceError extends Error {
  constructor(
    readonly service: ServiceName,
    message: string,
    readonly logLines: string[] = [],
    readonly logFile?: string,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

/** Redis and S3 have no time to wait beyond this; Postgres crash recovery can take a little longer. */
export const EXTERNAL_WAIT_MS = 15_000;

export function formatLine(name: string, state: string, detail = ""): string {
  return `${name.padEnd(10)}${state.padEnd(10)}${detail}`.trimEnd();
}

/** Hides passwords so URLs can be printed to terminals and CI logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return url;
  }
}
