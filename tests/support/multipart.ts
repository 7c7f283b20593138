/**
 * multipart/form-data as a browser's form writes it, piece by piece (shared by these tests and the benchmarks):
 * a text field whole; a file's head, then its bytes, then CRLF; the closing boundary.
 */
export const multipartField = (boundary: string, name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
export const multipartFileHead = (boundary: string, name: string, filename: string, type = "application/octet-stream") =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
export const multipartEnd = (boundary: string) => `--${boundary}--\r\n`;

/** A multipart POST whose body is produced as it is read: a file part can be an async iterable that takes its time. */

export type MultipartPart = { name: string; value: string | { filename: string; body: AsyncIterable<Uint8Array> | Uint8Array } };

export function multipart(parts: MultipartPart[], url = "http://localhost/submition/1", headers: Record<string, string> = {}) {
  const boundary = `----gk${Math.random().toString(16).slice(2)}`;
  const encoder = new TextEncoder();
  async function* generate() {
    for (const part of parts) {
      if (typeof part.value === "string") {
        yield encoder.encode(multipartField(boundary, part.name, part.value));
      } else {
        yield encoder.encode(multipartFileHead(boundary, part.name, part.value.filename));
        if (part.value.body instanceof Uint8Array) yield part.value.body;
        else for await (const chunk of part.value.body) yield chunk;
        yield encoder.encode("\r\n");
      }
    }
    yield encoder.encode(multipartEnd(boundary));
  }
  const iterator = generate();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  return new Request(url, {
    method: "POST",
    headers: { ...headers, "Content-Type": `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: "half",
  } as RequestInit);
}
