/**
 * The web process's request log: one JSON line per request once its answer has been sent or its client
 * has gone, at `info` (`error` for a 5xx). Nothing is built for a line the log level drops: at `warn`,
 * every answer under 500 costs two listeners and a clock reading. (pino-http, used before, made a child
 * logger per request with the request's headers serialised and redacted up front, logged or not: about
 * 2 % of a busy web process's CPU, docs/performance-log.md.)
 *
 * The line names the path without its query (a query may carry what a log must not keep), the status,
 * the milliseconds taken, whether the client left first, and the client's address; never a header, so
 * no cookie or token can reach the log.
 */
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";

export function accessLog(log: Logger, ignore: (req: Request) => boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (ignore(req)) return next();
    const started = Date.now();
    const method = req.method;
    // Mounted handlers rewrite req.url while they run: keep what was asked for.
    const path = req.path;
    let logged = false;
    const write = (aborted: boolean) => {
      if (logged) return;
      logged = true;
      const level = res.statusCode >= 500 ? "error" : "info";
      if (!log.isLevelEnabled(level)) return;
      log[level](
        { req: { method, path, remoteAddress: req.ip }, res: { statusCode: res.statusCode }, responseTime: Date.now() - started, ...(aborted ? { aborted } : {}) },
        aborted ? "request aborted" : level === "error" ? "request errored" : "request completed",
      );
    };
    res.once("finish", () => write(false));
    res.once("close", () => write(!res.writableFinished));
    next();
  };
}
