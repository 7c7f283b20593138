/** A .tar.gz of these files, paths as given (hostile ones too): the demo's and the benches' code tests, the tests' archives. */
import { gzipSync } from "node:zlib";
import * as tar from "tar-stream";

export async function tarGz(files: Record<string, string>): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve) => pack.on("end", () => resolve()));
  for (const [name, content] of Object.entries(files)) {
    await new Promise<void>((resolve, reject) => pack.entry({ name, type: "file" }, content, (error) => (error ? reject(error) : resolve())));
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}
