import path from "node:path";
import { REPO_ROOT } from "../../../scripts/lib/local-services.ts";

/** Every line the e2e web server and worker log (JSON), written by start-server.ts. */
export const E2E_SERVER_LOG = path.join(REPO_ROOT, ".local", "test-results", "e2e-server.log");

/** The name of the e2e server's identity provider, on /login's "Sign in with …" button (start-server.ts). */
export const E2E_PROVIDER_LABEL = "Demo University";
