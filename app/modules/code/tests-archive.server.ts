/**
 * A code challenge's hidden tests, as the admin uploads them: a .tar.gz (docs/domain.md "Code challenges").
 *
 *   subtasks.json                 optional: {"small": 30, "large": 70} — each subtask's share of the points
 *   small/1.in  small/1.out       a subtask is a directory of input/expected-output pairs
 *   large/1.in  large/1.out …
 *
 * Pairs at the top level, without directories, are one subtask worth everything. Without subtasks.json the
 * subtasks share the points equally. Tests run in the order of their names (numbers compared as numbers).
 *
 * Read with tar-stream (docs/decisions/042-code-sandbox.md), checked entry by entry as it streams: regular
 * files and directories only (no links, devices or FIFOs), no absolute path, no `..`, no name twice; at most
 * MAX_ENTRIES entries, MAX_TOTAL_BYTES in all, and no more than MAX_RATIO times the compressed size once past
 * RATIO_FREE_BYTES. The first fault stops the reading, and is named.
 */
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";

export const MAX_ENTRIES = 2000;
export const MAX_TOTAL_BYTES = 128 * 1024 * 1024;
export const MAX_RATIO = 1000;
export const RATIO_FREE_BYTES = 16 * 1024 * 1024;
const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

export interface HiddenTest {
  name: string;
  input: Buffer;
  output: Buffer;
}

export interface Subtask {
  name: string;
  /** Its share of the challenge's points, out of the archive's total. */
  share: number;
  tests: HiddenTest[];
}

export interface TestsArchive {
  subtasks: Subtask[];
  /** Sum of every subtask's share (the points scale to it). */
  totalShare: number;
}

export class ArchiveError extends Error {}

const byNaturalName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, "en", { numeric: true });

/** The path's parts, or the reason it is refused. */
function pathParts(raw: string): string[] {
  if (raw.startsWith("/")) throw new ArchiveError(`"${raw.slice(0, 100)}" is an absolute path.`);
  const parts = raw.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.some((part) => part === "..")) throw new ArchiveError(`"${raw.slice(0, 100)}" climbs out of the archive (..).`);
  if (parts.length > 2) throw new ArchiveError(`"${raw.slice(0, 100)}" is too deep: subtask directories hold the tests directly.`);
  for (const part of parts) if (!NAME.test(part)) throw new ArchiveError(`"${raw.slice(0, 100)}": names are letters, digits, '.', '_' and '-'.`);
  return parts;
}

export async function readTestsArchive(compressed: Buffer | Readable): Promise<TestsArchive> {
  const source = Buffer.isBuffer(compressed) ? Readable.from([compressed]) : compressed;
  let compressedBytes = 0;
  source.on("data", (chunk: Buffer) => (compressedBytes += chunk.length));
  const gunzip = createGunzip();
  const extract = tar.extract();
  const files = new Map<string, Buffer>();
  let entries = 0;
  let total = 0;
  const reading = new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      source.unpipe();
      source.destroy();
      gunzip.destroy();
      extract.destroy();
      reject(error instanceof ArchiveError ? error : new ArchiveError(`The archive could not be read: ${(error as Error).message}.`));
    };
    source.on("error", fail);
    gunzip.on("error", fail);
    extract.on("error", fail);
    extract.on("entry", (header, stream, next) => {
      try {
        if (++entries > MAX_ENTRIES) throw new ArchiveError(`More than ${MAX_ENTRIES} entries.`);
        const parts = pathParts(header.name);
        if (header.type === "directory") {
          if (parts.length > 1) throw new ArchiveError(`"${header.name}" is a directory inside a subtask.`);
          stream.resume();
          stream.on("end", next);
          return;
        }
        if (header.type !== "file") throw new ArchiveError(`"${header.name.slice(0, 100)}" is a ${header.type ?? "special entry"}: only files and directories are read.`);
        if (parts.length === 0) throw new ArchiveError("An entry has no name.");
        const key = parts.join("/");
        if (files.has(key)) throw new ArchiveError(`"${key}" appears twice.`);
        const chunks: Buffer[] = [];
        stream.on("data", (data: unknown) => {
          const chunk = data as Buffer;
          total += chunk.length;
          if (total > MAX_TOTAL_BYTES) return fail(new ArchiveError(`More than ${MAX_TOTAL_BYTES / 1024 / 1024} MB once unpacked.`));
          if (total > RATIO_FREE_BYTES && total > MAX_RATIO * Math.max(compressedBytes, 1)) return fail(new ArchiveError(`Unpacks to more than ${MAX_RATIO} times its size.`));
          chunks.push(chunk);
        });
        stream.on("end", () => {
          files.set(key, Buffer.concat(chunks));
          next();
        });
        stream.on("error", fail);
      } catch (error) {
        fail(error);
      }
    });
    extract.on("finish", () => resolve());
  });
  source.pipe(gunzip).pipe(extract);
  await reading;
  return arrange(files);
}

/** The files as subtasks: every .in has its .out, subtasks.json names existing subtasks. */
function arrange(files: Map<string, Buffer>): TestsArchive {
  let shares: Record<string, number> | null = null;
  const manifest = files.get("subtasks.json");
  files.delete("subtasks.json");
  if (manifest) {
    try {
      shares = JSON.parse(manifest.toString("utf8")) as Record<string, number>;
    } catch {
      throw new ArchiveError("subtasks.json is not JSON.");
    }
    if (typeof shares !== "object" || shares === null || Array.isArray(shares)) throw new ArchiveError('subtasks.json must be an object: {"subtask": points, …}.');
    for (const [name, share] of Object.entries(shares)) {
      if (!Number.isInteger(share) || share < 0 || share > 1_000_000) throw new ArchiveError(`subtasks.json: the share of "${name}" must be a whole number from 0.`);
    }
  }
  const groups = new Map<string, Map<string, { input?: Buffer; output?: Buffer }>>();
  for (const [key, content] of files) {
    const parts = key.split("/");
    const group = parts.length === 2 ? parts[0]! : "";
    const file = parts.at(-1)!;
    const match = /^(.+)\.(in|out)$/.exec(file);
    if (!match) throw new ArchiveError(`"${key}" is neither a test's input (.in) nor its expected output (.out).`);
    const tests = groups.get(group) ?? new Map();
    groups.set(group, tests);
    const test = tests.get(match[1]!) ?? {};
    tests.set(match[1]!, test);
    if (match[2] === "in") test.input = content;
    else test.output = content;
  }
  if (groups.size === 0) throw new ArchiveError("The archive holds no tests.");
  if (groups.has("") && groups.size > 1) throw new ArchiveError("Tests at the top level and in subtask directories: put every test in a subtask.");
  const subtasks: Subtask[] = [];
  for (const [name, tests] of groups) {
    const pairs: HiddenTest[] = [];
    for (const [testName, test] of tests) {
      if (!test.input) throw new ArchiveError(`"${name ? `${name}/` : ""}${testName}.out" has no .in.`);
      if (!test.output) throw new ArchiveError(`"${name ? `${name}/` : ""}${testName}.in" has no .out.`);
      pairs.push({ name: testName, input: test.input, output: test.output });
    }
    const share = shares ? shares[name || "all"] : 1;
    if (share === undefined) throw new ArchiveError(`subtasks.json gives no share to "${name}".`);
    subtasks.push({ name: name || "all", share, tests: pairs.sort(byNaturalName) });
  }
  if (shares) for (const name of Object.keys(shares)) if (!subtasks.some((subtask) => subtask.name === name)) throw new ArchiveError(`subtasks.json names "${name}", which has no tests.`);
  subtasks.sort(byNaturalName);
  const totalShare = subtasks.reduce((sum, subtask) => sum + subtask.share, 0);
  if (totalShare <= 0) throw new ArchiveError("The subtasks' shares add up to nothing.");
  return { subtasks, totalShare };
}
