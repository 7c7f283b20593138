/**
 * Looks at the screens the way a person does: logs in as each role and saves desktop and phone
 * screenshots under .local/screenshots/. Usage (against a running server):
 *   node --import tsx scripts/screenshots.ts [baseUrl] [path ...]
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { demoLogins } from "./demo-event.ts";
import { chromiumLaunchOptions } from "./lib/chromium.ts";

const baseUrl = process.argv[2] ?? "http://localhost:3000";
const only = process.argv.slice(3);
const outDir = path.resolve(".local/screenshots");
mkdirSync(outDir, { recursive: true });

const pages: Array<{ name: string; path: string; as?: keyof typeof accounts }> = [
  { name: "intro", path: "/" },
  { name: "login", path: "/login" },
  { name: "404", path: "/404" },
  { name: "register", path: "/register" },
  { name: "welcome", path: "/welcome", as: "participant" },
  { name: "gates", path: "/gates", as: "participant" },
  { name: "scoreboard", path: "/scoreboard", as: "participant" },
  { name: "gate-1", path: "/gate/1", as: "participant" },
  { name: "announcement", path: "/announcement", as: "participant" },
  { name: "timer", path: "/timer", as: "participant" },
  { name: "preloader", path: "/preloader?next=/preloader", as: "participant" },
  { name: "forbidden", path: "/dashboard", as: "participant" },
  { name: "dashboard", path: "/dashboard", as: "admin" },
  { name: "submissions", path: "/dashboard/submissions", as: "judge" },
];

const accounts = {
  admin: demoLogins.admin,
  judge: demoLogins.judge,
  participant: { name: "phoenix1", password: demoLogins.participantPassword },
};

const viewports = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

async function shoot(browser: Browser) {
  for (const [device, viewport] of Object.entries(viewports)) {
    for (const account of [undefined, ...Object.keys(accounts)] as Array<keyof typeof accounts | undefined>) {
      const todo = pages.filter((p) => p.as === account && (only.length === 0 || only.includes(p.path)));
      if (todo.length === 0) continue;
      const context = await browser.newContext({ viewport, reducedMotion: "reduce" });
      const page = await context.newPage();
      if (account) {
        await page.goto(`${baseUrl}/login`);
        await page.getByLabel("Username").fill(accounts[account].name);
        await page.getByLabel("Password").fill(accounts[account].password);
        await page.getByRole("button", { name: "Login" }).click();
        await page.waitForURL((url) => !url.pathname.startsWith("/login"));
      }
      for (const target of todo) {
        await page.goto(`${baseUrl}${target.path}`);
        await page.waitForTimeout(700);
        const file = path.join(outDir, `${target.name}-${device}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.log(file);
      }
      await context.close();
    }
  }
}

const browser = await chromium.launch(chromiumLaunchOptions);
try {
  await shoot(browser);
} finally {
  await browser.close();
}
