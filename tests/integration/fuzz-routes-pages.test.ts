/** The route fuzz (tests/support/route-fuzz.ts) over the participants' and visitors' pages and resource routes. */
import { fuzzRoutes } from "../support/route-fuzz.ts";

await fuzzRoutes((routeId) => !routeId.startsWith("routes/api.") && !routeId.startsWith("routes/dashboard"));
