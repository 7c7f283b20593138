import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import type { Express, NextFunction, Request, Response } from "express";
import { queues, type QueueKey } from "../infrastructure/queues.ts";
import { canOpen } from "../modules/auth/access.ts";
import { messages } from "../modules/messages.ts";
import { findCaller } from "./caller.server.ts";
import { sendRefusal } from "./malformed-requests.server.ts";
import { getQueue } from "../infrastructure/queue.server.ts";

export const QUEUE_BOARD_PATH = "/dashboard/queues";

/**
 * The same guard as requirePage, for an Express route: a visitor goes to /login?redirectTo=…, a role the
 * page-roles table does not admit to the queue board (app/modules/auth/access.ts: admins only) gets a 403.
 */
async function requireQueueBoardPage(req: Request, res: Response, next: NextFunction) {
  try {
    // An Authorization header alone says who calls, and the queue board takes no token: no one (caller.server.ts).
    if (req.headers.authorization !== undefined) {
      sendRefusal(req, res, 401, messages.errors.authorizationHeader);
      return;
    }
    const user = await findCaller({ cookie: req.headers.cookie });
    if (!user) {
      res.redirect(`/login?${new URLSearchParams({ redirectTo: req.originalUrl })}`);
      return;
    }
    if (!canOpen(user.role, QUEUE_BOARD_PATH)) {
      sendRefusal(req, res, 403, messages.errors.forbidden);
      return;
    }
    next();
  } catch (error) {
    next(error);
  }
}

// Another origin's stylesheet, font or script: bull-board's template links Google Fonts.
const foreignLink = /<link\b[^>]*\bhref="(?:https?:)?\/\/[^"]*"[^>]*>\s*/gi;
const foreignScript = /<script\b[^>]*\bsrc="(?:https?:)?\/\/[^"]*"[^>]*>\s*<\/script>\s*/gi;

// Outside bull-board's React root, so it never redraws it. bull-board's own colour tokens keep it
// readable in its light and dark themes. In the bottom corner; on wide screens in the middle of the
// 64 px header bar, empty there between the queue's name and the header's buttons.
const backLinkStyle = `<style>
.gatekeeper-back {
  position: fixed; z-index: 100; right: 1rem; bottom: 1rem;
  padding: 0.45rem 1rem; border: 1px solid var(--border, #d0d7e2); border-radius: 999px;
  background: var(--card, #fff); color: var(--foreground, #1f2937); box-shadow: 0 2px 8px rgba(0, 0, 0, 0.2);
  font: 500 0.875rem/1.2 var(--font-sans, system-ui, sans-serif); text-decoration: none;
}
.gatekeeper-back:hover { text-decoration: underline; }
.gatekeeper-back:focus-visible { outline: 2px solid var(--ring, #2563eb); outline-offset: 2px; }
@media (min-width: 75rem) {
  .gatekeeper-back { top: 32px; bottom: auto; right: auto; left: 50%; transform: translate(-50%, -50%); box-shadow: none; }
}
</style>`;
const backAnchor = `<a class="gatekeeper-back" href="/dashboard"><span aria-hidden="true">&larr;</span> Back to dashboard</a>`;

/**
 * bull-board's page as we serve it: everything it loads comes from our origin (its font stacks fall
 * back to the system's fonts, as ours do), and it has a visible link back to the dashboard, for which
 * bull-board's own header has no place (its extra links hide in a menu).
 */
function ownQueueBoardPage(html: string): string {
  return html
    .replace(foreignLink, "")
    .replace(foreignScript, "")
    .replace(/<\/head>/i, `${backLinkStyle}\n</head>`)
    .replace(/<body\b[^>]*>/i, (body) => `${body}\n${backAnchor}`);
}

type RenderFile = (path: string, options: object, callback: (error: Error | null, html?: string) => void) => void;

/** bull-board renders its page with the ejs engine createBullBoard registered: the same engine, then ownQueueBoardPage. */
function serveOwnPage(board: Express) {
  const render = (board as unknown as { engines: Record<string, RenderFile | undefined> }).engines[".ejs"];
  if (!render) throw new Error("bull-board no longer renders its page with ejs: adapt ownQueueBoardPage's hook");
  board.engine("ejs", (path, options, callback) => render(path, options, (error, html) => callback(error, html === undefined ? html : ownQueueBoardPage(html))));
}

/** bull-board (a well-kept queue UI): depth, active, failed jobs, retry; admins only. */
export function queueBoardRouter() {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: (Object.keys(queues) as QueueKey[]).map((key) => new BullMQAdapter(getQueue(key))),
    serverAdapter,
    options: { uiConfig: { boardTitle: "Gatekeeper queues" } },
  });
  const board: Express = serverAdapter.getRouter();
  serveOwnPage(board);
  return [requireQueueBoardPage, board] as const;
}
