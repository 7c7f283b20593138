import { hash, verify } from "@node-rs/argon2";

// argon2id with OWASP's minimum profile (19 MiB, 2 passes): strong, yet ~20 ms on this 2-core box.
const options = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * The stored "hash" of an account whose user has not chosen a password yet (made with a set-password link
 * mailed, docs/domain.md "Mail"): no password verifies against it, and a login tries it at a dummy hash's cost.
 */
export const NO_PASSWORD = "!none";

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verifying against this when the user does not exist keeps the timing of "no such user" and
// "wrong password" alike, so a login form cannot be used to list user names.
let dummyHash: Promise<string> | undefined;
export function verifyDummyPassword(password: string): Promise<boolean> {
  dummyHash ??= hashPassword("gatekeeper-dummy-password");
  return dummyHash.then((value) => verifyPassword(value, password)).then(() => false);
}
