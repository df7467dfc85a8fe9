/**
 * What the browser end-to-end tests of the examples share: a static file server for a built site on
 * 127.0.0.1, and Debian's Chromium launched through playwright-core (never a downloaded browser) with
 * the flags that keep it headless, offline and quiet. Chromium: `CHROMIUM_PATH`, else `/usr/bin/chromium`.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { type BrowserContext, chromium, type LaunchOptions } from 'playwright-core';

/** The Chromium the tests drive: `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags every test launches Chromium with: no sandbox, no GPU, no network of its own, no updates. */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Content types by file extension; anything else is served as `application/octet-stream`. */
export const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
};

/** Options of {@link serveDir}. */
export interface ServeOptions {
  /** Headers added to every file's response (e.g. the cross-origin-isolation pair). */
  headers?: Record<string, string>;
}

/**
 * Serves `dir` on 127.0.0.1 at a free port: a folder's `index.html` for a folder, 404 for a missing
 * file, 403 for a path outside `dir`.
 */
export function serveDir(dir: string, options: ServeOptions = {}): Promise<{ server: Server; url: string }> {
  const headers = options.headers ?? {};
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(dir, path));
    if (!file.startsWith(dir + sep) && file !== dir) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream', ...headers });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

/** Closes `server` (if any), resolving once it has stopped. */
export function closeServer(server: Server | undefined): Promise<void> {
  return new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

/** The options to launch headless Chromium with {@link CHROMIUM_FLAGS} and then `extraArgs`. */
export function chromiumOptions(extraArgs: readonly string[] = []): LaunchOptions {
  return { executablePath, headless: true, args: [...CHROMIUM_FLAGS, ...extraArgs] };
}

/** Options of {@link launchChromium}. */
export interface LaunchChromiumOptions {
  /** The pages' viewport (playwright's default, 1280×720, when left out). */
  viewport?: { width: number; height: number };
  /** Flags after {@link CHROMIUM_FLAGS} (SwiftShader, WebGPU…). */
  extraArgs?: readonly string[];
}

/** Launches headless Chromium with a persistent profile in `userDataDir`. */
export function launchChromium(
  userDataDir: string,
  { viewport, extraArgs }: LaunchChromiumOptions = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    ...chromiumOptions(extraArgs),
    ...(viewport ? { viewport } : {}),
  });
}
