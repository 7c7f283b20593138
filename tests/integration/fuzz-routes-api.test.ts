/** The route fuzz (tests/support/route-fuzz.ts) over the JSON API. */
import { fuzzRoutes } from "../support/route-fuzz.ts";

await fuzzRoutes((routeId) => routeId.startsWith("routes/api."));
