import { describe, expect, it } from "vitest";
import { decodeText, fileView, showControls } from "./file-view.ts";

const bytes = (...parts: Array<string | number[]>) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === "string" ? [...Buffer.from(part, "utf8")] : part)));

describe("fileView: what a submitted file may show, from its first bytes", () => {
  it("shows raster images and PDFs by their signatures, under the proven type", () => {
    expect(fileView(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "rest"))).toEqual({ kind: "image", type: "image/png" });
    expect(fileView(bytes([0xff, 0xd8, 0xff, 0xe0], "JFIF"))).toEqual({ kind: "image", type: "image/jpeg" });
    expect(fileView(bytes("GIF89a", [1, 0, 1, 0]))).toEqual({ kind: "image", type: "image/gif" });
    expect(fileView(bytes("RIFF", [0, 0, 0, 0], "WEBPVP8 "))).toEqual({ kind: "image", type: "image/webp" });
    expect(fileView(bytes("%PDF-1.7\n"))).toEqual({ kind: "pdf", type: "application/pdf" });
  });

  it("keeps SVG, HTML and other markup download-only, even though they are text", () => {
    for (const markup of [
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<?xml version="1.0"?><svg/>',
      "  \n<!DOCTYPE html><html>",
      "<html><body onload=alert(1)>",
      "<script>alert(1)</script>",
      "\ufeff<svg/>",
    ]) {
      expect(fileView(bytes(markup)), markup).toEqual({ kind: "download" });
    }
  });

  it("does not take a PDF or image signature that is not at the very start", () => {
    expect(fileView(bytes("hello %PDF-1.4"))).toEqual({ kind: "text" });
    expect(fileView(bytes([0x00], "%PDF-1.4"))).toEqual({ kind: "download" });
  });

  it("shows UTF-8 text and code, including Arabic and a character cut by the read", () => {
    expect(fileView(bytes("def crack(s):\n\treturn s[::-1]\r\n"))).toEqual({ kind: "text" });
    const arabic = Buffer.from("الإجابة: ٤٢", "utf8");
    expect(fileView(arabic)).toEqual({ kind: "text" });
    // The read stopped in the middle of a two-byte letter.
    expect(decodeText(arabic.subarray(0, arabic.length - 1))).toBe("الإجابة: ٤");
  });

  it("keeps binary and empty files download-only", () => {
    expect(fileView(bytes([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).toEqual({ kind: "download" }); // a zip
    expect(fileView(bytes("MZ", [0x90, 0x00, 0x03]))).toEqual({ kind: "download" }); // an executable
    expect(fileView(bytes([0xc3, 0x28, 0x41, 0x42, 0x43, 0x44]))).toEqual({ kind: "download" }); // not UTF-8
    expect(fileView(new Uint8Array())).toEqual({ kind: "download" });
    expect(fileView(bytes("text with a bell \u0007 in it"))).toEqual({ kind: "download" });
  });
});

describe("text as a judge reads it", () => {
  it("shows characters that reorder text as their codes, and refuses C1 controls", () => {
    const trojan = 'access_level = "user\u202e \u2066// Check if admin\u2069 \u2066"';
    expect(showControls(trojan)).toEqual({ text: 'access_level = "user⟨U+202E⟩ ⟨U+2066⟩// Check if admin⟨U+2069⟩ ⟨U+2066⟩"', reordering: true });
    expect(showControls("plain")).toEqual({ text: "plain", reordering: false });
    expect(fileView(bytes("text with a C1 control \u0085 in it"))).toEqual({ kind: "download" });
  });
});
