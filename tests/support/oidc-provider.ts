/**
 * A real OpenID Connect provider for the tests (docs/decisions/046-openid-connect.md): oidc-provider on a free
 * port of this machine, one client (the app), the claims each person has. Two ways to sign in at it:
 * - `answer` given: its login and consent are answered programmatically for the subject `answer()` names
 *   (tests/integration/oidc-sign-in.test.ts drives the flow without a browser);
 * - without: oidc-provider's own interaction pages (a login form: the login typed is the subject, any password;
 *   then a consent form), which a browser fills in (tests/e2e, started by tests/e2e/support/start-server.ts).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/** What the provider says about a person. */
export interface PersonClaims {
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
}

export interface TestProvider {
  issuer: string;
  close(): Promise<void>;
}

export async function startOidcProvider(options: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  claimsOf: (subject: string) => PersonClaims | undefined;
  answer?: () => string;
}): Promise<TestProvider> {
  const { clientId, clientSecret, redirectUri, claimsOf, answer } = options;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "client_secret_basic" }],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["preferred_username"] },
    features: { devInteractions: { enabled: !answer } },
    ...(answer ? { interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` } } : {}),
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, ...claimsOf(sub) }) }),
    cookies: { keys: ["a-cookie-key-for-the-tests-only"] },
    pkce: { required: () => true },
  });
  const callback = provider.callback();
  server.on("request", (req, res) => {
    if (!answer || !req.url?.startsWith("/interaction/")) return callback(req, res);
    // The provider's login and consent pages, answered for `answer()` without a form.
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === "login") {
        await provider.interactionFinished(req, res, { login: { accountId: answer() } }, { mergeWithLastSubmission: false });
        return;
      }
      const grant = new provider.Grant({ accountId: details.session!.accountId, clientId });
      grant.addOIDCScope("openid email profile");
      await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  return {
    issuer,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
