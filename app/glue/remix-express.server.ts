/**
 * Remix behind Express: `@remix-run/express`'s request handler, but a page rendered whole is sent with
 * one `end()` of its bytes. Remix's own handler reads every answer's body back out of its web stream
 * (a reader, a promise per chunk) and writes it in chunked encoding, then ends it with a second write;
 * a page here is one buffer already (app/entry.server.tsx renders to the end before answering), so that
 * round trip was pure cost on every page. Every other answer (`.data`, resources, redirects, HEAD) goes
 * the way Remix sends it.
 */
// The package exports these two from its server module only (not its index); the same code its handler runs.
import { createRemixRequest, sendRemixResponse } from "@remix-run/express/dist/server.js";
import { createRequestHandler as createRemixHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import type { NextFunction, Request, Response } from "express";
import { wholeBodyOf } from "./whole-body.ts";

interface HandlerOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  getLoadContext: (req: Request, res: Response) => AppLoadContext;
  mode: string;
}

export function createRequestHandler({ build, getLoadContext, mode }: HandlerOptions) {
  const handleRequest = createRemixHandler(build, mode);
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const request = createRemixRequest(req, res);
      const response = await handleRequest(request, getLoadContext(req, res));
      const whole = wholeBodyOf(response);
      if (whole === null) return await sendRemixResponse(res, response);
      res.statusMessage = response.statusText;
      res.status(response.status);
      for (const [key, value] of response.headers.entries()) res.append(key, value);
      // Said before the body: the compression middleware writes the headers before it passes end() on, so
      // without it an uncompressed page would still go out in chunks. (When it compresses, it drops it.)
      res.setHeader("Content-Length", whole.byteLength);
      res.end(whole);
    } catch (error) {
      next(error);
    }
  };
}
