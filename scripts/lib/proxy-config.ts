/**
 * The reverse proxy's configuration (deploy/nginx/gatekeeper.conf.template, decision 023), filled in the
 * way the official nginx image fills it in compose: each `${GATEKEEPER_…}` replaced by its value. The
 * web-tier drill renders it with this; compose's own values are checked against it (proxy-config.test.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { findOnPath } from "./process.ts";
import { REPO_ROOT } from "./local-services.ts";

export const PROXY_TEMPLATE = path.join(REPO_ROOT, "deploy", "nginx", "gatekeeper.conf.template");

export interface ProxyValues {
  /** `listen` argument: a port, or address:port. */
  GATEKEEPER_LISTEN: string;
  /** The upstream's `server` lines (and, in compose, its resolver). */
  GATEKEEPER_UPSTREAM: string;
  GATEKEEPER_ACCESS_LOG: string;
}

/**
 * The passive health check every web process gets: after one failed connection (refused, or not
 * accepted within proxy_connect_timeout) nginx sends it nothing for 5 s, then tries it again.
 */
export const UPSTREAM_SERVER_PARAMETERS = "max_fails=1 fail_timeout=5s";

/** One `server` line of the upstream: `address` is host:port, optionally followed by `resolve`. */
export function upstreamServer(address: string): string {
  return `server ${address} ${UPSTREAM_SERVER_PARAMETERS};`;
}

/** The template with every placeholder filled in; a placeholder without a value is an error. */
export function renderProxyConfig(values: ProxyValues, template = fs.readFileSync(PROXY_TEMPLATE, "utf8")): string {
  const known = values as unknown as Record<string, string>;
  return template.replace(/\$\{?(GATEKEEPER_[A-Z_]+)\}?/g, (_placeholder, name: string) => {
    const value = known[name];
    if (value === undefined) throw new Error(`${path.relative(REPO_ROOT, PROXY_TEMPLATE)}: no value for ${name}`);
    return value;
  });
}

/**
 * Debian's nginx (package `nginx`; `npm test` and `npm run drills` install it: scripts/lib/ensure.sh), or
 * NGINX_PATH. Throws a sentence saying how to get it: the drill must fail, never skip, without it.
 */
export function nginxBinary(): string {
  const configured = process.env.NGINX_PATH;
  if (configured) {
    if (!isExecutable(configured)) throw new Error(`NGINX_PATH=${configured} is not an executable.`);
    return configured;
  }
  const found = ["/usr/sbin/nginx"].find(isExecutable) ?? findOnPath("nginx");
  if (!found) {
    throw new Error("nginx is not installed: the web-tier drill runs Debian's nginx in front of the web processes. Install it (apt-get install nginx; npm test and npm run drills do it as root) or set NGINX_PATH.");
  }
  return found;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
