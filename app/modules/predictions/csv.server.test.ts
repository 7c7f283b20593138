import { describe, expect, it } from "vitest";
import { CsvError, readCsv } from "./csv.server.ts";

async function records(chunks: string[]) {
  const out: Array<[string[], number]> = [];
  await readCsv(
    (async function* () {
      for (const chunk of chunks) yield Buffer.from(chunk);
    })(),
    (cells, line) => out.push([[...cells], line]),
  );
  return out;
}

describe("the predictions' CSV reader", () => {
  it("reads quoted cells (commas, doubled quotes, line breaks), CRLF, a byte-order mark, and skips blank lines", async () => {
    expect(await records(['\uFEFFid,y\r\n1, 0.5 \r\n\r\n"a,""b""\nc",2\n3,"x"'])).toEqual([
      [["id", "y"], 1],
      [["1", "0.5"], 2],
      [['a,"b"\nc', "2"], 4],
      [["3", "x"], 6],
    ]);
  });

  it("gives the same records however the bytes are cut into chunks", async () => {
    const text = 'id,y\n1,"q""uoted"\r\n22,3.5\n"multi\nline",7\n';
    const whole = await records([text]);
    for (let cut = 1; cut < text.length; cut++) expect(await records([text.slice(0, cut), text.slice(cut)])).toEqual(whole);
  });

  it("refuses an unclosed quote and a quote inside an unquoted cell, naming the line", async () => {
    await expect(records(['id,y\n1,"open\n'])).rejects.toEqual(new CsvError(2));
    await expect(records(["id,y\n1,2\n3,a\"b\n"])).rejects.toEqual(new CsvError(3));
    await expect(records(['id,y\n"1"x,2\n'])).rejects.toEqual(new CsvError(2));
  });
});
