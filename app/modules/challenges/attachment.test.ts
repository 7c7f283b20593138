import { describe, expect, it } from "vitest";
import { attachmentExtension, sniffAttachment } from "./attachment.ts";

const bytes = (...values: number[]) => new Uint8Array([...values, 0, 0, 0, 0, 0, 0, 0, 0]);

describe("challenge attachments", () => {
  it("accepts the four kinds when the content matches the extension", () => {
    expect(sniffAttachment("photo.JPG", bytes(0xff, 0xd8, 0xff, 0xe0))).toEqual({ ok: true, contentType: "image/jpeg" });
    expect(sniffAttachment("a.png", bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)).ok).toBe(true);
    expect(sniffAttachment("brief.pdf", new TextEncoder().encode("%PDF-1.4\n")).ok).toBe(true);
    expect(sniffAttachment("brief.docx", bytes(0x50, 0x4b, 0x03, 0x04)).ok).toBe(true);
  });

  it("refuses other extensions and mismatched content", () => {
    expect(sniffAttachment("tool.exe", bytes(0x4d, 0x5a))).toEqual({ ok: false, reason: "type" });
    expect(sniffAttachment("brief.docx", bytes(0x4d, 0x5a, 0x90, 0x00))).toEqual({ ok: false, reason: "content" });
    expect(sniffAttachment("brief.pdf", new Uint8Array([0x25, 0x50]))).toEqual({ ok: false, reason: "content" });
    expect(attachmentExtension("noextension")).toBeNull();
  });
});
