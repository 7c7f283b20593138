import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server.js";
import { describe, expect, it } from "vitest";
import { AppLink, isCurrentPage, type AppLinkProps } from "./app-link.tsx";

/** The markup of one AppLink rendered on the server inside a data router, as a page renders it. */
async function markupOf(props: AppLinkProps): Promise<string> {
  const routes = [{ id: "root", path: "*", element: createElement(AppLink, props, "go") }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://x/gates"));
  if (context instanceof Response) throw new Error("unexpected response");
  return renderToString(createElement(StaticRouterProvider, { router: createStaticRouter(handler.dataRoutes, context), context, hydrate: false }));
}

describe("AppLink", () => {
  it("renders a real link to an app path, marked `data-discover` as <Link> marks it, with its other props", async () => {
    const html = await markupOf({ to: "/gate/3?x=1#y", className: "action-button", "aria-label": "Next" });
    expect(html).toBe('<a href="/gate/3?x=1#y" data-discover="true" class="action-button" aria-label="Next">go</a>');
  });

  it("leaves an address elsewhere and a page loaded as a new document to the browser (no discovery mark)", async () => {
    expect(await markupOf({ to: "https://example.org/x" })).toBe('<a href="https://example.org/x">go</a>');
    expect(await markupOf({ to: "//example.org/x" })).toBe('<a href="//example.org/x">go</a>');
    expect(await markupOf({ to: "/status", reloadDocument: true })).toBe('<a href="/status">go</a>');
  });

  it("a top-bar link is the page shown for the same path in any letter case, not for a longer or trailing-slash one", () => {
    expect(isCurrentPage("/gates", "/gates")).toBe(true);
    expect(isCurrentPage("/Gates", "/gates")).toBe(true);
    expect(isCurrentPage("/gates/", "/gates")).toBe(false);
    expect(isCurrentPage("/gate/3", "/gate")).toBe(false);
  });
});
