import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import type { NextFunction, Request, Response } from "express";
import { queues, type QueueKey } from "../infrastructure/queues.ts";
import { messages } from "../modules/messages.ts";
import { findCaller } from "./caller.server.ts";
import { getQueue } from "../infrastructure/queue.server.ts";

export const QUEUE_BOARD_PATH = "/dashboard/queues";

/**
 * The same guard as requireRole, for an Express route: a visitor goes to /login?redirectTo=…,
 * any role but admin gets a 403.
 */
async function requireAdmin(req: Request, res: Response, next: NextFunction) {
  try {
    const user = await findCaller({ cookie: req.headers.cookie });
    if (!user) {
      res.redirect(`/login?${new URLSearchParams({ redirectTo: req.originalUrl })}`);
      return;
    }
    if (user.role !== "admin") {
      res.status(403).type("text/plain").send(messages.errors.forbidden);
      return;
    }
    next();
  } catch (error) {
    next(error);
  }
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
  return [requireAdmin, serverAdapter.getRouter()] as const;
}
