/**
 * Submissions close, against the real web process (server.ts on the production build): an upload whose
 * request arrived before the close instant is accepted although its last byte arrives after it; one
 * begun after is refused with the sentence, on the upload endpoint and on the page's own form.
 */
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { eventSettings, submissions } from "../../db/schema.ts";
import { messages } from "../../app/modules/messages.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { startWebServer, stopAll } from "../support/processes.ts";
import { incompleteUploads } from "../support/buckets.ts";
import { FIXTURE_PASSWORD, seedDrillEvent } from "./support/event.ts";
import { get, login, postMultipart } from "./support/http.ts";

afterAll(() => stopAll());

const setClose = (at: Date | null) => getDb().update(eventSettings).set({ submissionsCloseAt: at }).where(eq(eventSettings.id, 1));

describe("submissions close on the real server", () => {
  it("judges an upload by when its request began, not by its last byte", async () => {
    const event = await seedDrillEvent({ teams: 2, judges: 0, challenges: 1, submittedChallenges: 0 });
    const { url: web } = await startWebServer();
    const [first, second] = await Promise.all(event.teams.map(({ participant }) => login(web, participant.name, FIXTURE_PASSWORD)));
    const challenge = event.challenges[0];
    await setClose(new Date(Date.now() + 60_000));

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let halfSent!: () => void;
    const half = new Promise<void>((resolve) => (halfSent = resolve));
    async function* slowFile() {
      // Past the first 5 MiB part: the server's multipart upload to storage exists once it has begun.
      yield new Uint8Array(6 * 1024 * 1024).fill(0x61);
      halfSent();
      await released;
      yield new Uint8Array(256 * 1024).fill(0x62);
    }
    const upload = postMultipart(`${web}/submition/${challenge.id}/upload`, first, [
      { name: "text", value: "sent just in time" },
      { name: "file", filename: "answer.bin", body: slowFile() },
    ]);
    await half;
    // The server has the request (its headers, its text and the file's first part) before the close moves.
    await vi.waitFor(async () => expect(await incompleteUploads(process.env.S3_BUCKET!)).toBe(1), { timeout: 30_000, interval: 100 });
    await setClose(new Date());
    // The page already says so while the upload is still on its way.
    const page = await get(`${web}/submition/${challenge.id}`, second);
    expect(page.body).toContain("Submissions closed at");
    release();
    const accepted = await upload;
    expect(accepted).toMatchObject({ status: 200 });
    const [row] = await getDb().select().from(submissions).where(eq(submissions.teamId, event.teams[0].team.id));
    expect(row).toMatchObject({ text: "sent just in time", fileSize: 6 * 1024 * 1024 + 256 * 1024 });

    const late = await postMultipart(`${web}/submition/${challenge.id}/upload`, second, [{ name: "text", value: "too late" }]);
    expect(late.status).toBe(403);
    expect(JSON.parse((late as { body: string }).body)).toEqual({ ok: false, message: messages.participant.submissionsClosed });

    // The form without JavaScript: the page, with the sentence and the typed text kept.
    const plain = await postMultipart(`${web}/submition/${challenge.id}`, second, [{ name: "text", value: "my typed answer" }]);
    expect(plain.status).toBe(403);
    expect((plain as { body: string }).body).toContain("my typed answer");
    expect((plain as { body: string }).body).toContain(messages.participant.submissionsClosed.split(":")[0]);
    expect(await getDb().select().from(submissions).where(eq(submissions.teamId, event.teams[1].team.id))).toHaveLength(0);
  });
});
