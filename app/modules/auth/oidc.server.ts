/**
 * Sign-in with the organisers' OpenID Connect provider (docs/domain.md "Sign-in with the organisers' identity
 * provider", docs/decisions/046-openid-connect.md), through openid-client: the authorization code flow with a
 * random state, nonce and PKCE verifier each time, checked by openid-client on the way back with the ID token's
 * issuer, audience and signature. The glue keeps the three in a signed, short-lived cookie
 * (app/glue/oidc.server.ts) and signs the person in as a password login does.
 *
 * Who the person is here: the account bound to the provider's issuer and subject; else, at a first sign-in, a
 * participant account whose address is the one the provider vouches for (email_verified true), which is then
 * bound; else, where OIDC_CREATES_ACCOUNTS allows it, a new participant account without a team. No claim ever
 * grants a role: an admin's, judge's or mentor's account is never bound or signed in through the provider.
 */
import { and, eq, sql } from "drizzle-orm";
import * as client from "openid-client";
import { ACCOUNTS_LOCK_KEY } from "../../../db/advisory-locks.ts";
import type { Transaction } from "../../../db/client.ts";
import { oidcIdentities, users } from "../../../db/schema.ts";
import { isUniqueViolation } from "../../../db/unique-violation.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getEnv, type OidcSettings } from "../../infrastructure/env.server.ts";
import { recordAudit, systemActor } from "../audit/audit.server.ts";
import { DomainError } from "../errors.ts";
import type { Language } from "../i18n/i18n.ts";
import { emailKey, MAX_EMAIL_LENGTH, normaliseEmail } from "../mail/addresses.ts";
import { messages } from "../messages.ts";
import { NAME_CONSTRAINTS, nameColumns, normaliseName, withoutInvisibleCharacters } from "../names/names.ts";
import { uniqueUserName } from "../registrations/accounts.server.ts";
import { NO_PASSWORD } from "./password.server.ts";

const m = messages.oidc;

/** A sign-in through the provider refused: the sentence the login page shows (and, for the log, what caused it). */
export class OidcSignInError extends DomainError {
  constructor(message: string, status = 403, cause?: unknown) {
    super(message, { status });
    if (cause !== undefined) this.cause = cause;
  }
}

/** The provider's settings, or null when this event has no such sign-in (OIDC_ISSUER unset). */
export function oidcSettings(): OidcSettings | null {
  return getEnv().oidc;
}

/** How long the provider has to answer a request of ours (seconds). */
const PROVIDER_TIMEOUT_SECONDS = 10;
/** The provider's metadata and keys are read again after this long (a key rotation, a moved endpoint). */
const DISCOVERY_TTL_MS = 6 * 3_600_000;

let discovered: { key: string; at: number; config: Promise<client.Configuration> } | undefined;

/** The provider's configuration, discovered once (and again after DISCOVERY_TTL_MS, or after a failure). */
function providerConfig(settings: OidcSettings): Promise<client.Configuration> {
  const key = `${settings.issuer}\n${settings.clientId}\n${settings.clientSecret}`;
  if (discovered && discovered.key === key && Date.now() - discovered.at < DISCOVERY_TTL_MS) return discovered.config;
  // Plain HTTP only outside production (the environment refuses it there): a provider on this machine in tests.
  const insecure = new URL(settings.issuer).protocol === "http:";
  const config = client.discovery(new URL(settings.issuer), settings.clientId, undefined, client.ClientSecretBasic(settings.clientSecret), {
    timeout: PROVIDER_TIMEOUT_SECONDS,
    execute: insecure ? [client.allowInsecureRequests] : [],
  });
  const entry = { key, at: Date.now(), config };
  discovered = entry;
  config.then(
    (found) => {
      const endpoint = found.serverMetadata().authorization_endpoint;
      signInPageOrigin = endpoint && URL.canParse(endpoint) ? new URL(endpoint).origin : null;
    },
    () => {
      if (discovered === entry) discovered = undefined;
    },
  );
  return config;
}

/** The origin of the provider's sign-in page (its authorization endpoint), once discovered: it may differ from the issuer's. */
let signInPageOrigin: string | null = null;
/** When the login page's policy last asked for the provider's configuration (epoch ms). */
let formActionDiscoveryAt = 0;

/**
 * Where the login page's "Sign in with …" form may lead (the CSP's form-action: a browser holds the redirect that
 * answers the form to it too): the issuer's origin and, once discovered, its sign-in page's (some providers, such as
 * AWS Cognito, keep it on another host). Discovery starts with the first call, so the origin is there by the time
 * a person reads the login page.
 */
export function oidcFormActionSources(settings: OidcSettings): string {
  // At most one discovery a minute from here: every page asks, and a provider that is down must not get one a page.
  if (Date.now() - formActionDiscoveryAt > 60_000) {
    formActionDiscoveryAt = Date.now();
    void providerConfig(settings).catch(() => {});
  }
  const issuerOrigin = new URL(settings.issuer).origin;
  return signInPageOrigin && signInPageOrigin !== issuerOrigin ? `${issuerOrigin} ${signInPageOrigin}` : issuerOrigin;
}

/** What the sign-in keeps between the start and the provider's answer: never shown to the person, never unsigned. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  /** Where to go after it (the login page's redirectTo, checked again then). */
  redirectTo: string;
  /** When it started (epoch ms): it is refused after PENDING_SIGN_IN_MS. */
  startedAt: number;
}

/** How long a person may spend at the provider's sign-in page. */
export const PENDING_SIGN_IN_MS = 10 * 60_000;

/** Starts a sign-in: the provider's authorization URL to send the person to, and what to keep until they return. */
export async function startOidcSignIn(settings: OidcSettings, redirectTo: string): Promise<{ url: string; pending: PendingSignIn }> {
  const config = await providerConfig(settings).catch(unavailable);
  const pending: PendingSignIn = { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier(), redirectTo, startedAt: Date.now() };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: settings.redirectUri,
    scope: "openid email profile",
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: "S256",
  });
  return { url: url.href, pending };
}

/** Who the provider says the person is (after every check). */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  preferredUsername: string | null;
}

function unavailable(error: unknown): never {
  throw new OidcSignInError(m.unavailable, 503, error);
}

/** A fetch that never reached the provider, or timed out (openid-client's errors carry it as their cause). */
function isUnreachable(error: unknown): boolean {
  for (let current = error as { name?: string; cause?: unknown } | undefined, depth = 0; current && depth < 5; current = current.cause as typeof current, depth++) {
    if (current instanceof TypeError && /fetch failed/i.test(current.message)) return true;
    if (current.name === "TimeoutError" || current.name === "AbortError") return true;
  }
  return false;
}

const claimText = (value: unknown, max: number) => (typeof value === "string" && value.length > 0 && value.length <= max ? value : null);

/**
 * Finishes a sign-in with the provider's answer (the callback's query): openid-client checks the state, trades
 * the code with the PKCE verifier, and checks the ID token (signature, issuer, audience, nonce, times). The
 * address and its verification come from the userinfo endpoint when the provider has one (for the same
 * subject), otherwise from the ID token.
 */
export async function finishOidcSignIn(settings: OidcSettings, callbackQuery: URLSearchParams, pending: PendingSignIn): Promise<ProviderIdentity> {
  if (Date.now() - pending.startedAt > PENDING_SIGN_IN_MS || Date.now() < pending.startedAt - 60_000) throw new OidcSignInError(m.failed, 400);
  const config = await providerConfig(settings).catch(unavailable);
  // The address the provider sent the person back to, with its answer: ours (APP_ORIGIN), whatever Host the request had.
  const currentUrl = new URL(settings.redirectUri);
  for (const [name, value] of callbackQuery) currentUrl.searchParams.append(name, value);
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(config, currentUrl, { expectedState: pending.state, expectedNonce: pending.nonce, pkceCodeVerifier: pending.verifier, idTokenExpected: true });
  } catch (error) {
    if (error instanceof client.AuthorizationResponseError && error.error === "access_denied") throw new OidcSignInError(m.cancelled);
    if (isUnreachable(error)) unavailable(error);
    throw new OidcSignInError(m.failed, 400, error);
  }
  const idClaims = tokens.claims();
  if (!idClaims) throw new OidcSignInError(m.failed, 400);
  let claims: Record<string, unknown> = idClaims;
  if (config.serverMetadata().userinfo_endpoint) {
    try {
      claims = { ...idClaims, ...(await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)), sub: idClaims.sub, iss: idClaims.iss };
    } catch (error) {
      if (isUnreachable(error)) unavailable(error);
      throw new OidcSignInError(m.failed, 400, error);
    }
  }
  const email = claimText(claims.email, MAX_EMAIL_LENGTH);
  return {
    issuer: idClaims.iss,
    subject: idClaims.sub,
    email: email && /^[^\s<>"@]+@[^\s<>"@]+$/.test(email) ? normaliseEmail(email) : null,
    // Only the boolean true: a provider that says nothing, or "true" as text, has not vouched for the address.
    emailVerified: claims.email_verified === true,
    preferredUsername: claimText(claims.preferred_username, 200),
  };
}

/** A signed-in account the provider's identity leads to, and how it was found. */
export interface OidcAccount {
  userId: number;
  outcome: "bound-before" | "bound-now" | "created";
}

/** How long a name made from the provider's claims may be: room for a number after it under the names' 60. */
const MAX_BASE_NAME = 40;

/** A login name from the provider's preferred_username, else the address's local part: valid under the names rule (app/modules/names/names.ts). */
export function baseNameFromClaims(preferredUsername: string | null, email: string | null): string {
  const clean = (value: string | null) => normaliseName(withoutInvisibleCharacters(value ?? "")).slice(0, MAX_BASE_NAME).trim();
  return clean(preferredUsername) || clean(email?.split("@")[0] ?? null) || "participant";
}

/**
 * The account the identity signs in to (docs/domain.md "Sign-in with the organisers' identity provider"), binding
 * or creating it as the rules say; throws OidcSignInError with the sentence otherwise. `from`: the client's
 * address, for the audit records; `language`: a new account's.
 */
export async function accountForIdentity(identity: ProviderIdentity, options: { createsAccounts: boolean; ip: string | null; language: Language }, tries = 2): Promise<OidcAccount> {
  const actor = { ...systemActor("identity provider sign-in"), ip: options.ip };
  try {
    return await getDb().transaction(async (tx) => {
      const [bound] = await tx
        .select({ userId: users.id, role: users.role })
        .from(oidcIdentities)
        .innerJoin(users, eq(users.id, oidcIdentities.userId))
        .where(and(eq(oidcIdentities.issuer, identity.issuer), eq(oidcIdentities.subject, identity.subject)));
      if (bound) {
        // A participant bound earlier, since made staff: staff sign in with their password only.
        if (bound.role !== "participant") throw new OidcSignInError(m.staffAccount);
        return { userId: bound.userId, outcome: "bound-before" as const };
      }
      if (identity.email && identity.emailVerified) {
        const [holder] = await tx
          .select({ id: users.id, role: users.role, name: users.name, emailConfirmed: users.emailConfirmed })
          .from(users)
          .where(eq(sql`lower(${users.email})`, emailKey(identity.email)))
          .for("no key update");
        if (holder) {
          if (holder.role !== "participant") throw new OidcSignInError(m.staffAccount);
          // An address copied from a /register form and never proved here may be someone else's: binding by it
          // would hand the account to whoever holds the address, or the address's owner to another's account.
          // Neither bound nor duplicated (the address is the account's): an organiser confirms it.
          if (!holder.emailConfirmed) throw new OidcSignInError(m.unconfirmedAddress, 409);
          await bind(tx, holder.id, identity);
          await recordAudit(tx, actor, { kind: "user.identity-bound", userId: holder.id, subjectId: holder.id, after: { issuer: identity.issuer, subject: identity.subject, email: identity.email } });
          return { userId: holder.id, outcome: "bound-now" as const };
        }
      }
      if (!options.createsAccounts) throw new OidcSignInError(identity.email && identity.emailVerified ? m.noAccount : m.unverified);
      return { userId: await createAccount(tx, identity, options.language, actor), outcome: "created" as const };
    });
  } catch (error) {
    // Two first sign-ins of one identity (or address) at once: the other one bound it; this one, asked again, finds it.
    if (tries > 1 && (isUniqueViolation(error, "oidc_identities_issuer_subject_key") || isUniqueViolation(error, "users_email_lower_key"))) return accountForIdentity(identity, options, tries - 1);
    // The account holds another identity of this provider already.
    if (isUniqueViolation(error, "oidc_identities_user_issuer_key")) throw new OidcSignInError(m.boundElsewhere, 409);
    throw error;
  }
}

async function bind(tx: Transaction, userId: number, identity: ProviderIdentity) {
  await tx.insert(oidcIdentities).values({ userId, issuer: identity.issuer, subject: identity.subject });
}

/** A participant account without a team and without a password, bound to the identity; its id. */
async function createAccount(tx: Transaction, identity: ProviderIdentity, language: Language, actor: ReturnType<typeof systemActor>): Promise<number> {
  // Accounts are made one at a time (registrations, the import, here), so two never choose one name.
  await tx.execute(sql`select pg_advisory_xact_lock(${ACCOUNTS_LOCK_KEY})`);
  const name = await uniqueUserName(tx, baseNameFromClaims(identity.preferredUsername, identity.email));
  // Only an address the provider vouches for is kept (an unverified one could block its owner's account).
  const email = identity.email && identity.emailVerified ? identity.email : null;
  try {
    const [row] = await tx.insert(users).values({ ...nameColumns(name), passwordHash: NO_PASSWORD, role: "participant", teamId: null, email, emailConfirmed: email !== null, language }).returning({ id: users.id, name: users.name });
    await bind(tx, row.id, identity);
    await recordAudit(tx, actor, { kind: "user.created", userId: row.id, subjectId: row.id, after: { name: row.name, role: "participant", teamId: null, email, language, via: "identity provider", issuer: identity.issuer, subject: identity.subject } });
    return row.id;
  } catch (error) {
    if (NAME_CONSTRAINTS.users.some((constraint) => isUniqueViolation(error, constraint))) throw new OidcSignInError(m.failed, 409);
    throw error;
  }
}
