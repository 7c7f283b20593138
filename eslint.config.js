import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The layers and the one direction of their arrows (docs/decisions/017-layers.md):
 *   routes → glue → modules → infrastructure → db
 * A layer may import any layer below it, never one above. Each entry says what the files of one folder
 * must not import, as no-restricted-imports patterns (relative paths and the `~/` alias alike).
 */
const folder = (name) => [`**/app/${name}`, `**/app/${name}/**`, `**/${name}/**`, `~/${name}`, `~/${name}/**`];
const remixSide = ["@remix-run/*", "@conform-to/*", "remix-auth", "remix-auth-*"];
const upward = {
  "db/**": ["**/app/**", "**/workers/**", "**/scripts/**", "~/*"],
  "app/infrastructure/**": [...folder("modules"), ...folder("glue"), ...folder("routes"), ...folder("components"), ...folder("hooks"), "~/root", "**/root", ...remixSide, "react", "react-dom"],
  "app/modules/**": [...folder("glue"), ...folder("routes"), ...folder("components"), ...folder("hooks"), "~/root", "**/root", ...remixSide],
  "app/glue/**": [...folder("routes"), ...folder("components"), "~/root", "**/root"],
  // The browser side (imported by routes): it never reaches a server layer.
  "app/components/**": [...folder("routes"), ...folder("glue"), ...folder("infrastructure"), "~/root"],
  "app/hooks/**": [...folder("routes"), ...folder("glue"), ...folder("infrastructure"), ...folder("components"), "~/root"],
  // Routes reach data through modules: no database, Redis, queue or emitter client of their own.
  "app/routes/**": ["drizzle-orm", "drizzle-orm/*", "**/db/**", ...["db", "redis", "queue", "emitter"].map((name) => `~/infrastructure/${name}.server*`)],
};
const layerMessage = "Against the layers' direction: routes → glue → modules → infrastructure → db (docs/decisions/017-layers.md).";

// Remix's classic compiler bundles what a non-.server module imports into the browser build: such a
// module must never pull in server-only code. entry.server.tsx is the server renderer itself; tests
// never reach a browser.
const serverOnly = { group: ["node:*", "ioredis", "bullmq", "postgres", "@aws-sdk/*"], message: "Server-only: import it from a *.server.ts module." };
const serverFiles = ["**/*.server.ts", "**/*.server.tsx", "**/*.test.ts", "app/entry.server.tsx"];

/**
 * ESLint keeps only the last block's options for a rule, so each folder gets two blocks with the union
 * of what applies: its layer's patterns, plus the server-only ones for the files that reach a browser.
 */
function layerBlocks() {
  const restrict = (patterns) => ({ "no-restricted-imports": ["error", { patterns }] });
  const blocks = [{ files: ["app/**/*.{ts,tsx}"], ignores: serverFiles, rules: restrict([serverOnly]) }];
  for (const [glob, group] of Object.entries(upward)) {
    const files = [`${glob}/*.{ts,tsx}`];
    const layer = { group, message: layerMessage };
    blocks.push({ files, rules: restrict([layer]) });
    if (glob.startsWith("app/")) blocks.push({ files, ignores: serverFiles, rules: restrict([layer, serverOnly]) });
  }
  return blocks;
}

export default tseslint.config(
  {
    ignores: ["node_modules/", "build/", "public/build/", ".cache/", ".local/", "test-results/", "playwright-report/", "bench/results/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["warn", "error", "info", "log", "table"] }],
      eqeqeq: ["error", "smart"],
    },
  },
  ...layerBlocks(),
  {
    // A list as `in ($1, …, $n)` is a new prepared statement per length on every pooled connection: the
    // soak saw the heap creep (db/any-of.ts). Lists go as one array parameter.
    files: ["app/**/*.{ts,tsx}", "workers/**/*.ts", "server.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        // Imported by name, reached through a namespace (`d.inArray`), or taken from the query builder's operators (`{ inArray }`).
        { selector: "ImportSpecifier[imported.name=/^(inArray|notInArray)$/]", message: "Use anyOf (db/any-of.ts): one statement text whatever the list's length." },
        { selector: "MemberExpression[property.name=/^(inArray|notInArray)$/]", message: "Use anyOf (db/any-of.ts): one statement text whatever the list's length." },
        { selector: "ObjectPattern > Property[key.name=/^(inArray|notInArray)$/]", message: "Use anyOf (db/any-of.ts): one statement text whatever the list's length." },
        // A live event's re-read clears Remix's action data: a reply would vanish a moment after it came.
        { selector: "ImportSpecifier[imported.name='useActionData']", message: "Use useActionReply (app/components/action-reply.ts): a revalidation clears useActionData's reply." },
      ],
    },
  },
);
