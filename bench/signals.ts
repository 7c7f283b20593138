/**
 * Integrity signals (docs/PERFORMANCE.md "Integrity signals", docs/decisions/045-integrity-signals.md). Two parts:
 *
 * 1. Speed: one challenge holding VERSIONS stored versions (generated programs, fingerprinted and stored with
 *    their band keys in bulk), then NEW versions from new teams each compared by the worker's own function
 *    (compareSubmission: read, fingerprint, band-key lookup, candidates' signatures, signal writes) — the
 *    worker time of a new version, p50 and p99. Target: at most 50 ms.
 * 2. Accuracy: a challenge with starter code; INDEPENDENT answers (the starter plus each team's own lines) sent one
 *    by one through compareSubmission, then COPIES of random ones, edited as copiers do (identifiers renamed,
 *    lines reordered, a comment and blank lines added, one literal changed). Measured: the share of planted copies
 *    that yield a signal naming the copied team (target ≥ 90 %), and the share of independent answers that yield
 *    any signal (target ≤ 1 %).
 * 3. Images (decision 047): IMAGES stored image prints (generated pictures, hashed), then NEW image uploads of new
 *    teams compared by compareSubmission (the bytes read from storage, decoded, hashed, band lookup); then
 *    INDEPENDENT_IMAGES independent pictures one by one and COPIES re-encodings of random ones (resized to 90 %,
 *    JPEG at quality 60): the share of copies found (an 'image' signal naming the team copied) and of
 *    independent pictures with any signal.
 *
 *   npm run bench:signals [-- --smoke] [--versions N] [--new N] [--independent N] [--copies N] [--images N] [--independent-images N]
 */
import { sql } from "drizzle-orm";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import { challenges, challengeStarters, imageBands, integritySignals, printBands, submissionPrints, submissions, teams } from "../db/schema.ts";
import { closeDb, getDb, poolStats } from "../app/infrastructure/db.server.ts";
import { closeEmitter } from "../app/infrastructure/emitter.server.ts";
import { closeRedis } from "../app/infrastructure/redis.server.ts";
import { compareSubmission, DEFAULT_SIMILARITY_PERCENT } from "../app/modules/integrity/compare.server.ts";
import { fingerprint } from "../app/modules/integrity/fingerprint.ts";
import { toStored } from "../app/modules/integrity/minhash.ts";
import { imageHash } from "../app/modules/integrity/image-hash.server.ts";
import { imageBandKeys, toStoredHash } from "../app/modules/integrity/image-hash.ts";
import { newObjectKey, uploadStream } from "../app/infrastructure/s3.server.ts";
import { PICTURE_HEIGHT, PICTURE_WIDTH, picturePng, reencoded } from "../tests/support/pictures.ts";
import { createBenchWorld, summarise } from "./lib/env.ts";
import { BenchFailure, benchArgs, numberOption, report, targetVerdict } from "./lib/report.ts";
import { random } from "./lib/random.ts";

const args = benchArgs({ versions: { type: "string" }, new: { type: "string" }, independent: { type: "string" }, copies: { type: "string" }, images: { type: "string" }, "independent-images": { type: "string" } });
const VERSIONS = numberOption(args.versions, args.smoke ? 1000 : 10_000);
const NEW = numberOption(args.new, args.smoke ? 20 : 200);
const INDEPENDENT = numberOption(args.independent, args.smoke ? 100 : 1000);
const COPIES = numberOption(args.copies, args.smoke ? 20 : 100);
const IMAGES = numberOption(args.images, args.smoke ? 500 : 10_000);
const INDEPENDENT_IMAGES = numberOption(args["independent-images"], args.smoke ? 100 : 1000);
/** The generated pictures' size (tests/support/pictures.ts: 320 × 240, about 5 ms each to make). */
const PICTURE = { width: PICTURE_WIDTH, height: PICTURE_HEIGHT };
/** The stored pictures are made at a quarter of that (the same blobs, 16 times fewer pixels to generate): their 9 × 8 hashes are alike, and 10,000 of them are made in a minute, not twenty. */
const SEED_PICTURE = { width: PICTURE_WIDTH / 4, height: PICTURE_HEIGHT / 4 };

const rand = random(45);
const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)];
const int = (max: number) => Math.floor(rand() * max);

const WORDS = "alpha beta gamma delta total count items values result score rank name data row col key index left right low high mid node edge path cost best worst sum avg".split(" ");
const STRINGS = "ok done error missing empty ready start stop found none yes no input output".split(" ");
const ident = () => `${pick(WORDS)}${pick(["", "_", ""])}${pick(["", pick(WORDS)])}${int(3) === 0 ? int(10) : ""}`;

/** One statement, Python-like, its names and literals random. */
function statement(): string {
  const a = ident();
  const b = ident();
  const c = ident();
  const n = int(100);
  const shapes = [
    () => `${a} = ${b} + ${n}`,
    () => `${a} = ${b}(${c}, ${n})`,
    () => `for ${a} in range(${n}):`,
    () => `    ${a} += ${b}[${n % 7}] * ${int(10)}`,
    () => `if ${a} > ${n}:`,
    () => `    return ${a} - ${n}`,
    () => `${a}.append(${b} // ${n + 1})`,
    () => `print('${pick(STRINGS)}', ${a}, ${n})`,
    () => `${a} = [${b} for ${b} in ${c} if ${b} % ${int(9) + 2} == ${int(3)}]`,
    () => `while ${a} < ${n}:`,
    () => `    ${a} = max(${a}, ${b}[${int(5)}])`,
    () => `def ${a}(${b}, ${c}=${n}):`,
    () => `${a} = {'${pick(STRINGS)}': ${n}, '${pick(STRINGS)}': ${b}}`,
    () => `${a} = sorted(${b}, key=lambda ${c}: ${c}[${int(4)}])[:${n}]`,
    () => `raise ValueError('${pick(STRINGS)} ${n}')`,
  ];
  return pick(shapes)();
}

const answer = (lines: number) => Array.from({ length: lines }, statement).join("\n");

/** A copier's edits: names renamed consistently, lines shuffled in blocks, a comment and blank lines, one literal changed. */
function edited(text: string): string {
  const names = new Map<string, string>();
  // Names outside strings (a string's words are its value, which a copier keeps).
  const renamed = text.replace(/'[^'\n]*'|[A-Za-z_][A-Za-z_0-9]*/g, (name) => {
    if (name.startsWith("'") || /^(for|in|range|if|return|while|def|print|max|sorted|lambda|key|raise|ValueError|append)$/.test(name)) return name;
    if (!names.has(name)) names.set(name, `v${names.size}_${int(1000)}`);
    return names.get(name)!;
  });
  const lines = renamed.split("\n");
  // Reorder: swap a third of the lines with others.
  for (let i = 0; i < lines.length / 3; i++) {
    const x = int(lines.length);
    const y = int(lines.length);
    [lines[x], lines[y]] = [lines[y], lines[x]];
  }
  const changed = int(lines.length);
  lines[changed] = lines[changed].replace(/\d+/, (digits) => String(Number(digits) + 1));
  lines.splice(int(lines.length), 0, "# written by our team", "");
  return lines.join("\n");
}

const STARTER = [
  "import sys",
  "def read_input():",
  "    data = sys.stdin.read().split()",
  "    return [int(x) for x in data]",
  "def main():",
  "    values = read_input()",
  "    # your code here",
  "    print(solve(values))",
  "if __name__ == '__main__':",
  "    main()",
].join("\n");

async function makeTeams(count: number, prefix: string): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < count; start += 2000) {
    const rows = Array.from({ length: Math.min(2000, count - start) }, (_, i) => {
      const name = `${prefix}-${start + i}`;
      return { name, nameKey: name };
    });
    ids.push(...(await getDb().insert(teams).values(rows).returning({ id: teams.id })).map((row) => row.id));
  }
  return ids;
}

async function makeChallenge(title: string) {
  const [row] = await getDb().insert(challenges).values({ title, description: "bench", points: 100, category: "CS", wave: 1 }).returning({ id: challenges.id });
  return row.id;
}

/** Stored versions in bulk: a submission per team, VERSIONS / teams versions each, fingerprinted and banded. */
async function seedVersions(challengeId: number, count: number) {
  const perTeam = 5;
  const teamIds = await makeTeams(Math.ceil(count / perTeam), `seed-${challengeId}`);
  const subs = await getDb()
    .insert(submissions)
    .values(teamIds.map((teamId) => ({ teamId, challengeId, text: "seeded" })))
    .returning({ id: submissions.id, teamId: submissions.teamId });
  let made = 0;
  for (let offset = 0; offset < subs.length; offset += 200) {
    const prints: (typeof submissionPrints.$inferInsert)[] = [];
    const bandsOf: number[][] = [];
    for (const sub of subs.slice(offset, offset + 200)) {
      for (let v = 0; v < perTeam && made < count; v++, made++) {
        const print = fingerprint(answer(12 + int(20)));
        if (!print) continue;
        prints.push({ submissionId: sub.id, teamId: sub.teamId, challengeId, versionAt: new Date(Date.now() - (v + 1) * 60_000), source: "text", kind: print.kind, shingles: print.shingles, signature: toStored(print.signature) });
        bandsOf.push(print.bands);
      }
    }
    const ids = await getDb().insert(submissionPrints).values(prints).returning({ id: submissionPrints.id });
    const bands = ids.flatMap((row, i) => [...new Set(bandsOf[i])].map((key) => ({ challengeId, key, printId: row.id })));
    for (let b = 0; b < bands.length; b += 5000) await getDb().insert(printBands).values(bands.slice(b, b + 5000)).onConflictDoNothing();
  }
  return made;
}

/** A new version of a new team, through the worker's own function; returns its time in ms and its signals' other teams. */
async function sendAndCompare(challengeId: number, teamId: number, text: string) {
  const [sub] = await getDb().insert(submissions).values({ teamId, challengeId, text }).returning({ id: submissions.id });
  const ms = await measured(() => compareSubmission(sub.id));
  const signals = await getDb().select({ otherTeamId: integritySignals.otherTeamId }).from(integritySignals).where(sql`${integritySignals.printId} in (select id from ${submissionPrints} where submission_id = ${sub.id})`);
  return { ms, others: signals.map((row) => row.otherTeamId) };
}

/** Stored image prints in bulk: one submission and one hashed picture per team, with their band keys. */
async function seedImages(challengeId: number, count: number) {
  const teamIds = await makeTeams(count, `image-${challengeId}`);
  const subs = await getDb()
    .insert(submissions)
    .values(teamIds.map((teamId) => ({ teamId, challengeId, text: null })))
    .returning({ id: submissions.id, teamId: submissions.teamId });
  let made = 0;
  for (let offset = 0; offset < subs.length; offset += 500) {
    const prints: (typeof submissionPrints.$inferInsert)[] = [];
    const hashes: bigint[] = [];
    for (const sub of subs.slice(offset, offset + 500)) {
      const result = await imageHash(await picturePng(1_000_000 + sub.id, SEED_PICTURE.width, SEED_PICTURE.height));
      if (!("hash" in result)) continue;
      prints.push({ submissionId: sub.id, teamId: sub.teamId, challengeId, versionAt: new Date(), source: "file", kind: "image", imageHash: toStoredHash(result.hash) });
      hashes.push(result.hash);
    }
    const ids = await getDb().insert(submissionPrints).values(prints).returning({ id: submissionPrints.id });
    const bands = ids.flatMap((row, i) => imageBandKeys(hashes[i]).map((key) => ({ challengeId, key, printId: row.id })));
    for (let b = 0; b < bands.length; b += 5000) await getDb().insert(imageBands).values(bands.slice(b, b + 5000)).onConflictDoNothing();
    made += ids.length;
  }
  return made;
}

/** A new image upload of a new team (stored, then compared by the worker's own function); its time and its image signals' other teams. */
async function sendImage(challengeId: number, teamId: number, bytes: Buffer) {
  const key = newObjectKey("submissions");
  const { size } = await uploadStream({ key, body: Readable.from([bytes]), limitBytes: 10_000_000 });
  const [sub] = await getDb().insert(submissions).values({ teamId, challengeId, text: null, fileKey: key, fileName: "answer", fileSize: size }).returning({ id: submissions.id });
  const ms = await measured(() => compareSubmission(sub.id));
  const signals = await getDb()
    .select({ otherTeamId: integritySignals.otherTeamId, kind: integritySignals.kind })
    .from(integritySignals)
    .where(sql`${integritySignals.printId} in (select id from ${submissionPrints} where submission_id = ${sub.id})`);
  return { ms, others: signals.map((row) => row.otherTeamId), kinds: signals.map((row) => row.kind) };
}

/** One comparison's costs (ms): wall, the worker process's CPU and event loop, Postgres awaited and its backends' CPU, GC. */
interface Sample {
  wall: number;
  cpu: number;
  loop: number;
  pgAwaited: number;
  pgCpu: number;
  gc: number;
  statements: number;
}
const samples: Sample[] = [];

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ["gc"] });

/** The bench database's backends (the pool's connections; other sessions' databases are not counted). */
async function backendPids(): Promise<number[]> {
  const rows = await getDb().execute<{ pid: number }>(sql`select pid from pg_stat_activity where datname = current_database()`);
  return rows.map((row) => Number(row.pid));
}

/** Nanoseconds a process has run on a CPU (/proc/<pid>/schedstat, Linux; 0 where it cannot be read). */
function runNs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
  } catch {
    return 0;
  }
}

/** Runs one comparison and records its costs; returns its wall time (ms). */
async function measured(run: () => Promise<unknown>): Promise<number> {
  const pids = await backendPids();
  const pgBefore = pids.reduce((sum, pid) => sum + runNs(pid), 0);
  const pool = poolStats();
  const gcBefore = gcMs;
  const loop = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const loopUsed = performance.eventLoopUtilization(loop);
  const after = poolStats();
  const pgAfter = pids.reduce((sum, pid) => sum + runNs(pid), 0);
  samples.push({ wall, cpu: (used.user + used.system) / 1000, loop: loopUsed.active, pgAwaited: after.awaitedMs - pool.awaitedMs, pgCpu: (pgAfter - pgBefore) / 1e6, gc: gcMs - gcBefore, statements: after.sent - pool.sent });
  return wall;
}

/** The recorded samples' percentiles, each cost on its own, and the slowest five whole (where a tail goes). */
function costs() {
  const taken = samples.splice(0);
  const of = (key: keyof Sample) => summarise(taken.map((sample) => sample[key]));
  const round = (sample: Sample) => Object.fromEntries(Object.entries(sample).map(([key, value]) => [key, +value.toFixed(2)]));
  return {
    wall: of("wall"),
    cpu: of("cpu"),
    loop: of("loop"),
    pgAwaited: of("pgAwaited"),
    pgCpu: of("pgCpu"),
    gc: of("gc"),
    statements: of("statements"),
    worker: summarise(taken.map((sample) => sample.cpu + sample.pgCpu)),
    slowest: [...taken].sort((a, b) => b.wall - a.wall).slice(0, 5).map(round),
  };
}

const world = await createBenchWorld("signals");
try {
  // 1. Speed.
  const speedChallenge = await makeChallenge("speed");
  const seeded = await seedVersions(speedChallenge, VERSIONS);
  await getDb().execute(sql`analyze`);
  const newTeams = await makeTeams(NEW, "new");
  for (const teamId of newTeams) (await sendAndCompare(speedChallenge, teamId, answer(12 + int(20))));
  const speed = costs();
  const loadDuringTexts = loadavg();

  // 2. Accuracy.
  const accuracyChallenge = await makeChallenge("accuracy");
  await getDb().insert(challengeStarters).values({ challengeId: accuracyChallenge, text: STARTER });
  const independentTeams = await makeTeams(INDEPENDENT, "independent");
  const originals: string[] = [];
  let falseSignals = 0;
  for (const teamId of independentTeams) {
    const text = STARTER.replace("    # your code here", answer(10 + int(15)));
    originals.push(text);
    if ((await sendAndCompare(accuracyChallenge, teamId, text)).others.length > 0) falseSignals++;
  }
  const copierTeams = await makeTeams(COPIES, "copier");
  let found = 0;
  for (const teamId of copierTeams) {
    const source = int(INDEPENDENT);
    const { others } = await sendAndCompare(accuracyChallenge, teamId, edited(originals[source]));
    if (others.includes(independentTeams[source])) found++;
  }
  const foundShare = found / COPIES;
  const falseShare = falseSignals / INDEPENDENT;

  // 3. Images.
  const imageChallenge = await makeChallenge("images");
  const seededImages = await seedImages(imageChallenge, IMAGES);
  await getDb().execute(sql`analyze`);
  for (const teamId of await makeTeams(NEW, "new-image")) await sendImage(imageChallenge, teamId, await picturePng(2_000_000 + teamId, PICTURE.width, PICTURE.height));
  const imageSpeed = costs();
  const loadDuringImages = loadavg();
  const pictureChallenge = await makeChallenge("image accuracy");
  const pictureTeams = await makeTeams(INDEPENDENT_IMAGES, "independent-image");
  const pictures: Buffer[] = [];
  let falseImages = 0;
  for (const teamId of pictureTeams) {
    const bytes = await picturePng(3_000_000 + teamId, PICTURE.width, PICTURE.height);
    pictures.push(bytes);
    if ((await sendImage(pictureChallenge, teamId, bytes)).others.length > 0) falseImages++;
  }
  let foundImages = 0;
  for (const teamId of await makeTeams(COPIES, "image-copier")) {
    const source = int(INDEPENDENT_IMAGES);
    const { others, kinds } = await sendImage(pictureChallenge, teamId, await reencoded(pictures[source]));
    if (others.includes(pictureTeams[source]) && kinds.includes("image")) foundImages++;
  }
  samples.splice(0);
  const foundImageShare = foundImages / COPIES;
  const falseImageShare = falseImages / INDEPENDENT_IMAGES;

  const figures = (what: string, summary: { p50: number; p90: number; p99: number; max: number }, target = "", verdict = "") => ({ what, p50: +summary.p50.toFixed(2), p90: +summary.p90.toFixed(2), p99: +summary.p99.toFixed(2), max: +summary.max.toFixed(2), target, verdict });
  const split = (name: string, cost: ReturnType<typeof costs>) => [
    figures(`${name}: worker time (the worker's CPU + its Postgres backends' CPU, ms)`, cost.worker, "≤ 50 ms", targetVerdict(cost.worker.p99 <= 50)),
    figures(`${name}: wall (ms)`, cost.wall, "≤ 50 ms", targetVerdict(cost.wall.p99 <= 50)),
    figures("  the worker process's CPU (process.cpuUsage, ms)", cost.cpu),
    figures("  its event loop busy (eventLoopUtilization, ms)", cost.loop),
    figures("  Postgres awaited (statements and transactions in flight, ms)", cost.pgAwaited),
    figures("  its Postgres backends' CPU (/proc/<pid>/schedstat, ms)", cost.pgCpu),
    figures("  garbage collection (ms)", cost.gc),
    figures("  statements and transactions sent", cost.statements),
  ];
  const share = (what: string, value: number, target: string, met: boolean) => ({ what, p50: +(value * 100).toFixed(2), p90: "", p99: "", max: "", target, verdict: targetVerdict(met) });
  const rows = [
    ...split(`a new version's comparison at ${seeded} stored versions (${NEW} new versions, load ${loadDuringTexts.map((load) => load.toFixed(1)).join(" ")})`, speed),
    share(`planted copies found (${COPIES}, edited), %`, foundShare, "≥ 90 %", foundShare >= 0.9),
    share(`independent answers with a signal (${INDEPENDENT}, shared starter), %`, falseShare, "≤ 1 %", falseShare <= 0.01),
    ...split(`a new image's comparison at ${seededImages} stored images (${NEW} uploads; read, decode, hash, lookup; load ${loadDuringImages.map((load) => load.toFixed(1)).join(" ")})`, imageSpeed),
    share(`re-encoded images found (${COPIES}, 90 % size, JPEG quality 60), %`, foundImageShare, "≥ 90 %", foundImageShare >= 0.9),
    share(`independent pictures with a signal (${INDEPENDENT_IMAGES}), %`, falseImageShare, "≤ 1 %", falseImageShare <= 0.01),
  ];
  report("signals", args.smoke, `Integrity signals (threshold ${DEFAULT_SIMILARITY_PERCENT} %)`, rows, { versions: seeded, speed, loadDuringTexts, found, copies: COPIES, falseSignals, independent: INDEPENDENT, images: seededImages, imageSpeed, loadDuringImages, foundImages, falseImages, independentImages: INDEPENDENT_IMAGES }, args.out);
  if (!args.smoke && found === 0) throw new BenchFailure("no planted copy was found");
} finally {
  await closeEmitter().catch(() => undefined);
  await closeRedis().catch(() => undefined);
  await closeDb();
  await world.drop();
}
