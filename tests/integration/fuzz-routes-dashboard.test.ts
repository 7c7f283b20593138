/** The route fuzz (tests/support/route-fuzz.ts) over the dashboard's pages and resource routes. */
import { fuzzRoutes } from "../support/route-fuzz.ts";

await fuzzRoutes((routeId) => routeId.startsWith("routes/dashboard"));
