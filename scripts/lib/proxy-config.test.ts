import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./local-services.ts";
import { PROXY_TEMPLATE, renderProxyConfig, upstreamServer } from "./proxy-config.ts";

const compose = readFileSync(path.join(REPO_ROOT, "docker-compose.yml"), "utf8");

/** A variable of the proxy service's environment in docker-compose.yml, quotes removed. */
function composeValue(name: string): string {
  const match = new RegExp(`^ {6}${name}: (.+)$`, "m").exec(compose);
  if (!match) throw new Error(`docker-compose.yml sets no ${name}`);
  return match[1].replace(/^"(.*)"$/, "$1");
}

describe("the reverse proxy's configuration (decision 023)", () => {
  it("compose runs the template the drill runs, on the same upstream parameters", () => {
    expect(compose).toContain(`./${path.relative(REPO_ROOT, PROXY_TEMPLATE)}:/etc/nginx/templates/default.conf.template:ro`);
    const upstream = composeValue("GATEKEEPER_UPSTREAM");
    // Every replica of `web`, re-resolved through Docker's DNS, with the drill's passive health check.
    expect(upstream).toContain(upstreamServer("web:3000 resolve"));
    expect(upstream).toMatch(/^resolver 127\.0\.0\.11 /);
    const rendered = renderProxyConfig({
      GATEKEEPER_LISTEN: composeValue("GATEKEEPER_LISTEN"),
      GATEKEEPER_UPSTREAM: upstream,
      GATEKEEPER_ACCESS_LOG: composeValue("GATEKEEPER_ACCESS_LOG"),
    });
    expect(rendered).not.toMatch(/\$\{?GATEKEEPER_/);
    expect(rendered).toContain("server web:3000 resolve max_fails=1 fail_timeout=5s;");
    expect(rendered).toContain("listen 80 default_server;");
  });

  it("refuses to render with a value missing", () => {
    expect(() => renderProxyConfig({ GATEKEEPER_LISTEN: "80", GATEKEEPER_UPSTREAM: upstreamServer("127.0.0.1:1") } as never)).toThrow(/GATEKEEPER_ACCESS_LOG/);
  });

  it("says the app's own words when no web process answers", async () => {
    const { messages } = await import("../../app/modules/messages.ts");
    expect(readFileSync(PROXY_TEMPLATE, "utf8")).toContain(`return 503 "${messages.errors.unavailable}\\n";`);
  });
});
