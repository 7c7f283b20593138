/** A .tar.gz of these files, paths as given (hostile ones too): the demo's and the benches' code tests, the tests' archives. */
import { gzipSync } from "node:zlib";
import * as tar from "tar-stream";

export type TarEntry = Partial<tar.Header> & { name: string; content?: string | Buffer };

/** A .tar.gz made entry by entry, any header included (links, devices, `..`: what tar itself would refuse to write). */
export async function tarGzEntries(entries: TarEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve) => pack.on("end", () => resolve()));
  for (const { content, ...header } of entries) {
    await new Promise<void>((resolve, reject) => pack.entry(header, content ?? "", (error) => (error ? reject(error) : resolve())));
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

export async function tarGz(files: Record<string, string>): Promise<Buffer> {
  return tarGzEntries(Object.entries(files).map(([name, content]) => ({ name, type: "file", content })));
}
