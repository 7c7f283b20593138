/**
 * The browser the e2e tests and the screenshots script launch: Debian's Chromium, never a browser
 * build a tool downloads (none can be fetched on these machines). By default its headless shell
 * (package chromium-headless-shell, installed by `npm test`): the same Chromium build without the
 * desktop browser around it, which is what Playwright runs for headless Chromium anyway, at half the
 * CPU of the full browser here (decision 014). CHROMIUM_PATH=/usr/bin/chromium runs the full browser.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    // No connections of the browser's own: this machine's network is closed, and they cost CPU.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};
