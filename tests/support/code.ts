/** Code challenges made as an admin makes them (app/glue/code.server.ts), for the integration tests. */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { challenges } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { adminCodePost } from "../../app/glue/code.server.ts";
import { callerOf, makeChallenge, makeUser } from "./fixtures.ts";
import { tarGz } from "../../scripts/lib/tar-gz.ts";

export { tarGz };

export const SUMS = {
  "subtasks.json": JSON.stringify({ small: 30, large: 70 }),
  "small/1.in": "1 2\n",
  "small/1.out": "3\n",
  "small/2.in": "20 22\n",
  "small/2.out": "42\n",
  "large/1.in": "2000000000 2000000000\n",
  "large/1.out": "4000000000\n",
};

export const post = (path: string, body: FormData | URLSearchParams) => new Request(`http://localhost${path}`, { method: "POST", body });

export function settingsForm(over: Record<string, string | string[]> = {}) {
  const form = new URLSearchParams({ intent: "settings", timeLimitMs: "1000", memoryLimitMb: "128", comparator: "exact" });
  for (const language of (over.languages as string[] | undefined) ?? ["python3", "c"]) form.append("languages", language);
  for (const [key, value] of Object.entries(over)) if (key !== "languages") form.set(key, value as string);
  return form;
}

export function archiveForm(archive: Buffer, name = "tests.tar.gz") {
  const form = new FormData();
  form.set("file", new File([new Uint8Array(archive)], name, { type: "application/gzip" }));
  return form;
}

/** A challenge checked by tests, its settings and archive saved through the admin's forms. */
export async function codeChallenge(points = 100, files: Record<string, string> = SUMS) {
  const admin = await makeUser("admin");
  const challenge = await makeChallenge({ points, category: "PS", wave: 1 });
  await getDb().update(challenges).set({ checking: "tests" }).where(eq(challenges.id, challenge.id));
  const caller = callerOf(admin);
  const path = `/dashboard/code/${challenge.id}`;
  expect(await adminCodePost(post(path, settingsForm()), caller, challenge.id)).toMatchObject({ ok: true });
  expect(await adminCodePost(post(path, archiveForm(await tarGz(files))), caller, challenge.id)).toMatchObject({ ok: true });
  return { challenge, admin, caller, path };
}

export function programForm(language: string, source: string, asFile = false) {
  const form = new FormData();
  form.set("language", language);
  if (asFile) form.set("file", new File([source], "main.py", { type: "text/x-python" }));
  else form.set("source", source);
  return form;
}

