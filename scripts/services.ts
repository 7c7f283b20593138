/**
 * Starts, stops and reports the backing services for dev and tests: Postgres, Redis, S3 and the project's own
 * SMTP server (which keeps the mail it receives: scripts/smtp-server.ts).
 *
 *   node --import tsx scripts/services.ts start|stop|status
 *
 * A service whose env var is set (DATABASE_URL, REDIS_URL, S3_ENDPOINT, SMTP_HOST) is external: we only wait for it and
 * create the database or bucket. Otherwise a project-local instance runs on a non-standard port with its data
 * in .local/, so it never touches a system install and a fresh machine needs no setup.
 */
import { postgresService } from "./lib/postgres-service.ts";
import { redisService } from "./lib/redis-service.ts";
import { s3Service } from "./lib/s3-service.ts";
import { smtpService } from "./lib/smtp-service.ts";
import { errorMessage } from "./lib/process.ts";
import { ServiceError, formatLine, redactUrl, type LocalService, type ServiceName } from "./lib/service.ts";

// The SDK's "node >= 22 from 2027" notice is known (the SDK is pinned in package.json); it only adds noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const SERVICES: LocalService[] = [postgresService, redisService, s3Service, smtpService];
const COMMANDS = ["start", "stop", "status"] as const;
type Command = (typeof COMMANDS)[number];

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "");

/**
 * The env var's URL when it names another server. A copied .env.example sets the vars to the local defaults;
 * that must still start the local instance rather than wait for a server nobody starts.
 */
function externalUrl(service: LocalService): string | undefined {
  if (service.externalTarget) return service.externalTarget();
  const url = process.env[service.envVar];
  if (!url || withoutTrailingSlash(url) === withoutTrailingSlash(service.localUrl)) return undefined;
  return url;
}

function printNotes(name: string, notes: string[] = []): void {
  for (const note of notes) console.log(formatLine(name, "note", note));
}

async function startOne(service: LocalService): Promise<void> {
  const url = externalUrl(service);
  if (url) {
    await service.prepareExternal(url);
    console.log(formatLine(service.name, "external", redactUrl(url)));
    return;
  }
  const result = await service.start();
  console.log(formatLine(service.name, result.state, result.url));
  printNotes(service.name, result.notes);
}

/** Stop ignores the env vars: whatever local instance we started is ours to stop, external ones never are. */
async function stopOne(service: LocalService): Promise<void> {
  const stopped = await service.stop();
  console.log(formatLine(service.name, stopped ? "stopped" : "not running"));
}

async function statusOne(service: LocalService): Promise<void> {
  const url = externalUrl(service);
  if (url) {
    console.log(formatLine(service.name, "external", redactUrl(url)));
    return;
  }
  const result = await service.status();
  console.log(formatLine(service.name, result.state, result.url));
  printNotes(service.name, result.notes);
}

function reportFailure(name: ServiceName, error: unknown): void {
  console.error(formatLine(name, "failed", errorMessage(error)));
  if (!(error instanceof ServiceError) || error.logLines.length === 0) return;
  console.error(`--- last lines of ${error.logFile ?? "output"} ---`);
  for (const line of error.logLines) console.error(`  ${line}`);
}

const ACTIONS: Record<Command, (service: LocalService) => Promise<void>> = {
  start: startOne,
  stop: stopOne,
  status: statusOne,
};

/** Services are handled one by one so output stays in order; one failure does not hide the others. */
async function main(command: Command): Promise<number> {
  let failed = false;
  for (const service of SERVICES) {
    try {
      await ACTIONS[command](service);
    } catch (error) {
      reportFailure(service.name, error);
      failed = true;
    }
  }
  return failed ? 1 : 0;
}

function isCommand(value: string | undefined): value is Command {
  return COMMANDS.some((command) => command === value);
}

const command = process.argv[2];
if (!isCommand(command)) {
  console.error(`usage: node --import tsx scripts/services.ts <${COMMANDS.join("|")}>`);
  process.exit(2);
}
process.exit(await main(command));
