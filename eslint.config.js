import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

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
  {
    files: ["app/**/*.{ts,tsx}"],
    // entry.server.tsx is the server renderer itself (never in the browser bundle).
    ignores: ["app/**/*.server.ts", "app/**/*.test.ts", "app/entry.server.tsx"],
    rules: {
      // The browser bundle must never pull in server-only code: Remix's classic compiler bundles what a
      // non-.server module imports into the browser build.
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["node:*", "ioredis", "bullmq", "postgres", "@aws-sdk/*"], message: "Server-only: import it from a *.server.ts module." }] },
      ],
    },
  },
  {
    // The lowest layer: db/ (schema, client, SQL migrations) imports nothing from app/, workers/ or
    // scripts/. What needs the app's rules (the seed, re-keying names) lives in scripts/.
    files: ["db/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/app/**", "**/workers/**", "**/scripts/**", "~/*"], message: "db/ is the lowest layer: it imports nothing from app/, workers/ or scripts/." }] },
      ],
    },
  },
);
