/**
 * The API reference page shows the catalogue's texts through keys (operation-texts.ts): every call has
 * its keys, the English of en.json is the catalogue's own (the page reads as /api/v1/openapi.json does),
 * and each Arabic description keeps its `code` spans whole.
 */
import { describe, expect, it } from "vitest";
import ar from "~/locales/ar.json";
import en from "~/locales/en.json";
import { catalogueWithTexts, operationKey, operationTexts, tagTexts } from "./operation-texts";

const lookup = (file: unknown, key: string) => key.split(".").reduce<unknown>((tree, part) => (tree as Record<string, unknown> | undefined)?.[part], file);

describe("the API reference's texts", () => {
  const calls = catalogueWithTexts();

  it("name every call of the catalogue, and no other", () => {
    expect(calls.filter((call) => !call.texts).map((call) => operationKey(call.method, call.path))).toEqual([]);
    expect(Object.keys(operationTexts).sort()).toEqual(calls.map((call) => operationKey(call.method, call.path)).sort());
  });

  it("hold the catalogue's English verbatim, a description where it has one", () => {
    for (const { method, path, operation, texts } of calls) {
      const name = operationKey(method, path);
      expect(lookup(en, texts.summary), name).toBe(operation.summary);
      expect(texts.description === undefined, name).toBe(operation.description === undefined);
      if (texts.description) expect(lookup(en, texts.description), name).toBe(operation.description);
    }
  });

  it("give every Arabic text, with its code spans closed", () => {
    for (const { texts } of calls) {
      for (const key of [texts.summary, texts.description].filter((k): k is string => !!k)) {
        const text = lookup(ar, key);
        expect(typeof text, key).toBe("string");
        expect((text as string).split("`").length % 2, key).toBe(1);
      }
    }
  });

  it("name every tag", () => {
    expect([...new Set(calls.map((call) => call.operation.tag))].filter((tag) => !tagTexts[tag])).toEqual([]);
  });
});
