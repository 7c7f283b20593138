import { describe, expect, it } from "vitest";
import { tarGzEntries as archive, type TarEntry as Entry } from "../../../scripts/lib/tar-gz";
import { MAX_ENTRIES, readTestsArchive } from "./tests-archive.server";

const file = (name: string, content: string | Buffer = "x\n"): Entry => ({ name, content, type: "file" });

describe("the hidden tests archive", () => {
  it("reads subtasks from directories, their shares from subtasks.json, tests in natural order", async () => {
    const read = await readTestsArchive(
      await archive([
        file("subtasks.json", JSON.stringify({ small: 30, large: 70 })),
        { name: "small/", type: "directory" },
        file("small/10.in", "10\n"),
        file("small/10.out", "100\n"),
        file("small/2.in", "2\n"),
        file("small/2.out", "4\n"),
        file("large/1.in", "1000\n"),
        file("large/1.out", "1000000\n"),
      ]),
    );
    expect(read.totalShare).toBe(100);
    expect(read.subtasks.map((subtask) => [subtask.name, subtask.share, subtask.tests.map((test) => test.name)])).toEqual([
      ["large", 70, ["1"]],
      ["small", 30, ["2", "10"]],
    ]);
    expect(read.subtasks[1]!.tests[0]!.input.toString()).toBe("2\n");
  });

  it("takes top-level pairs as one subtask worth everything", async () => {
    const read = await readTestsArchive(await archive([file("1.in"), file("1.out"), file("./2.in"), file("2.out")]));
    expect(read.subtasks).toHaveLength(1);
    expect(read.subtasks[0]!.tests).toHaveLength(2);
  });

  const refused: Array<[string, Entry[], RegExp]> = [
    ["a symbolic link", [file("1.in"), { name: "1.out", type: "symlink", linkname: "/etc/shadow" }], /symlink/],
    ["a hard link", [file("1.in"), { name: "1.out", type: "link", linkname: "1.in" }], /link/],
    ["a device", [{ name: "zero.in", type: "character-device", devmajor: 1, devminor: 5 }], /character-device/],
    ["a FIFO", [{ name: "f.in", type: "fifo" }], /fifo/],
    ["an absolute path", [file("/etc/cron.d/x.in")], /absolute/],
    ["a path with ..", [file("small/../../x.in")], /climbs/],
    ["a deep path", [file("a/b/c.in")], /too deep/],
    ["a name twice", [file("1.in"), file("1.in"), file("1.out")], /twice/],
    ["an input without output", [file("1.in")], /has no \.out/],
    ["a stray file", [file("1.in"), file("1.out"), file("notes.txt")], /neither/],
    ["a share missing from subtasks.json", [file("subtasks.json", '{"a": 1}'), file("a/1.in"), file("a/1.out"), file("b/1.in"), file("b/1.out")], /no share to "b"/],
    ["a bad subtasks.json", [file("subtasks.json", "[1]"), file("1.in"), file("1.out")], /must be an object/],
    ["an empty archive", [], /no tests/],
  ];
  for (const [what, entries, message] of refused) {
    it(`refuses ${what}, naming it`, async () => {
      await expect(readTestsArchive(await archive(entries))).rejects.toThrow(message);
    });
  }

  it("stops at too many entries", async () => {
    const entries = Array.from({ length: MAX_ENTRIES + 1 }, (_, index) => file(`${index}.${index % 2 ? "out" : "in"}`, ""));
    await expect(readTestsArchive(await archive(entries))).rejects.toThrow(/More than 2000 entries/);
  });

  it("stops a compression bomb while it reads (a 200 MB file of zeros in a few hundred kilobytes)", async () => {
    const bomb = await archive([file("1.in", Buffer.alloc(200 * 1024 * 1024)), file("1.out")]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expect(readTestsArchive(bomb)).rejects.toThrow(/times its size|MB once unpacked/);
  });

  it("refuses what is not a gzip'd tar", async () => {
    await expect(readTestsArchive(Buffer.from("PK\u0003\u0004 not a tar"))).rejects.toThrow(/could not be read/);
  });
});
