/**
 * The project's own SMTP server (scripts/smtp-server.ts), run as a detached Node process like the S3 server.
 * SMTP_HOST set to another server (or to "none": no mail) makes it external: nothing is started, nothing is
 * waited for (a mail provider is not ours to probe at every start; a send that fails is retried and shown).
 */
import fs from "node:fs";
import path from "node:path";
import { LOCAL_DIR, LOCAL_HOST, MAILBOX_DIR, REPO_ROOT, SMTP_PORT } from "./local-services.ts";
import { isPidAlive, isPortOpen, launchDetachedNode, ourPidFrom, sleep, tailFile, waitUntil } from "./process.ts";
import { ServiceError, type LocalService, type StartResult, type StatusResult } from "./service.ts";

const SMTP_DIR = path.join(LOCAL_DIR, "smtp");
const PID_FILE = path.join(SMTP_DIR, "smtp.pid");
const LOG_FILE = path.join(SMTP_DIR, "smtp.log");
const SERVER_SCRIPT = path.join(REPO_ROOT, "scripts", "smtp-server.ts");
const PROCESS_MARKER = "smtp-server.ts";
const READY_TIMEOUT_MS = 20_000;
const LOCAL_URL = `smtp://${LOCAL_HOST}:${SMTP_PORT}`;

const ourPid = () => ourPidFrom(PID_FILE, PROCESS_MARKER);

function failStart(message: string): never {
  throw new ServiceError("smtp", message, tailFile(LOG_FILE), LOG_FILE);
}

function launch(): { hasExited: () => boolean } {
  fs.mkdirSync(MAILBOX_DIR, { recursive: true });
  return launchDetachedNode(SERVER_SCRIPT, REPO_ROOT, LOG_FILE, PID_FILE) ?? failStart("could not spawn node for scripts/smtp-server.ts");
}

async function waitForPort(hasExited: () => boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await isPortOpen(LOCAL_HOST, SMTP_PORT))) {
    if (hasExited()) failStart("the SMTP server exited during startup");
    if (Date.now() > deadline) failStart(`the SMTP server is not listening on ${LOCAL_URL}`);
    await sleep(200);
  }
}

async function start(): Promise<StartResult> {
  fs.mkdirSync(SMTP_DIR, { recursive: true });
  if (ourPid() !== null) {
    await waitForPort(() => false);
    return { state: "running", url: LOCAL_URL, notes: [`mail kept in ${MAILBOX_DIR}`] };
  }
  if (await isPortOpen(LOCAL_HOST, SMTP_PORT)) {
    throw new ServiceError("smtp", `port ${SMTP_PORT} is in use by another process; free it, or set SMTP_HOST (none: no mail)`);
  }
  await waitForPort(launch().hasExited);
  return { state: "started", url: LOCAL_URL, notes: [`mail kept in ${MAILBOX_DIR}`] };
}

async function stop(): Promise<boolean> {
  const pid = ourPid();
  if (pid === null) return false;
  process.kill(pid, "SIGTERM");
  if (!(await waitUntil(() => !isPidAlive(pid), 10_000))) throw new ServiceError("smtp", `pid ${pid} did not exit after SIGTERM`, tailFile(LOG_FILE), LOG_FILE);
  fs.rmSync(PID_FILE, { force: true });
  return true;
}

async function status(): Promise<StatusResult> {
  if (ourPid() !== null) return { state: "running", url: LOCAL_URL };
  const notes = (await isPortOpen(LOCAL_HOST, SMTP_PORT)) ? [`port ${SMTP_PORT} is in use by another process`] : [];
  return { state: "stopped", url: LOCAL_URL, notes };
}

/** SMTP_HOST names another server (or none) unless it names this one, as a copied .env.example would. */
function externalTarget(): string | undefined {
  const host = process.env.SMTP_HOST;
  if (!host) return undefined;
  const port = process.env.SMTP_PORT;
  if (host === LOCAL_HOST && (!port || Number(port) === SMTP_PORT)) return undefined;
  return host === "none" ? "none (no mail is sent)" : `smtp://${host}${port ? `:${port}` : ""}`;
}

export const smtpService: LocalService = {
  name: "smtp",
  envVar: "SMTP_HOST",
  localUrl: LOCAL_URL,
  externalTarget,
  start,
  prepareExternal: async () => {},
  stop,
  status,
};
