// Issue 11's browser figures for `npm run bench`: a generated page of 1000 elements, served from a localhost
// server this script starts and stops, opened in Debian's Chromium started by our launch_app with a debugging
// port. Our `page get_text` (the DevTools protocol) and `get_window_state` (the accessibility tree) against the
// Playwright MCP server's `browser_snapshot`, run as a real MCP server over stdio and attached to the same
// Chromium with --cdp-endpoint, so both read the same page in the same browser. Time per call and o200k tokens
// of the text each returns; rounds interleave every reader so load on this shared machine falls on all alike.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { resultText } from '../src/tools/call-result.js';
import type { ToolContext } from '../src/tools/context.js';
import { repositoryRoot, type TestDesktop } from '../test/helpers/desktop.js';
import { connectMcp, stringEnv } from '../test/helpers/mcp.js';
import { launchBrowser, stopBrowser, type Launched } from '../test/helpers/page-suite.js';
import { callOk, testContext } from '../test/helpers/tools.js';
import { median, ms, type BenchRow } from './bench-report.js';

const PAGE_ELEMENTS = 1000;
const PAGE_TITLE = 'CUP Bench Page';
const CALL_TIMEOUT_MS = 60_000;
/** Installed by `node scripts/setup.mjs --bench` from bench-peers/package-lock.json (a pinned version). */
const playwrightMcpCli = join(repositoryRoot, 'bench-peers', 'node_modules', '@playwright', 'mcp', 'cli.js');

const WORDS = ['catalogue', 'river', 'invoice', 'harbour', 'lantern', 'meadow', 'ledger', 'orchard', 'signal', 'timber', 'quarry', 'beacon'];

/** A sentence that differs from its neighbours, so no reader can fold repeated text. */
function sentence(seed: number, length = 12): string {
  const words = Array.from({ length }, (_, i) => WORDS[(seed * 7 + i * 5) % WORDS.length]!);
  return `${words.join(' ')} ${seed}.`;
}

/**
 * An ordinary long page of exactly `target` elements under <body>: headings, paragraphs with inline links, a
 * form, a table and lists, counted as they are written (the bench checks the count in the browser).
 */
export function benchPageHtml(target = PAGE_ELEMENTS): string {
  let count = 0;
  const el = (tag: string, inner = '', attributes = ''): string => {
    count++;
    return `<${tag}${attributes ? ` ${attributes}` : ''}>${inner}</${tag}>`;
  };
  const input = (attributes: string): string => {
    count++;
    return `<input ${attributes}>`;
  };
  const parts = [el('h1', PAGE_TITLE), el('p', `A generated page for the benchmark: ${sentence(0)}`)];
  const fields = ['Name', 'Email', 'Street', 'City', 'Postcode', 'Phone']
    .map((label, i) => el('p', el('label', `${label} ${input(`name="f${i}" value="${i === 0 ? 'Ada' : ''}"`)}`)))
    .join('');
  const options = ['Post', 'Courier', 'Pick-up', 'Locker', 'Drone'].map((option) => el('option', option)).join('');
  parts.push(
    el(
      'form',
      el('h2', 'Order form') +
        fields +
        el('p', el('label', `Delivery ${el('select', options, 'name="delivery"')}`)) +
        el('p', el('label', `Notes ${el('textarea', '', 'name="notes" rows="2"')}`)) +
        el('p', el('label', `${input('type="checkbox" name="gift"')} Gift wrap`)) +
        el('button', 'Place order', 'type="button"'),
      'action="#"',
    ),
  );
  const head = el('thead', el('tr', ['Item', 'Code', 'Quantity', 'Price'].map((cell) => el('th', cell)).join('')));
  const rows = Array.from({ length: 30 }, (_, i) => el('tr', [WORDS[i % WORDS.length]!, `C-${1000 + i}`, String((i * 3) % 17), `${(i * 4.25).toFixed(2)}`].map((cell) => el('td', cell)).join(''))).join('');
  parts.push(el('h2', 'Stock'), el('table', el('caption', 'Stock by item') + head + el('tbody', rows)));
  // Sections of 16 elements (section, h2, two paragraphs, a link, a list of 10 items with one link) until the
  // next would pass the target; a last list takes the rest.
  for (let s = 1; count + 16 <= target - 2; s++) {
    const items = Array.from({ length: 10 }, (_, i) => el('li', i === 0 ? el('a', `Item ${s}.${i}`, `href="#s${s}"`) : `Item ${s}.${i}: ${sentence(s * 10 + i, 4)}`)).join('');
    parts.push(el('section', el('h2', `Section ${s}`) + el('p', `${sentence(s)} ${el('a', `more on ${WORDS[s % WORDS.length]}`, `href="#s${s}"`)}`) + el('p', sentence(s + 500)) + el('ul', items), `id="s${s}"`));
  }
  if (count < target) {
    const rest = target - count - 1;
    parts.push(el('ul', Array.from({ length: rest }, (_, i) => el('li', `Last item ${i}`)).join('')));
  }
  if (count !== target) throw new Error(`the bench page has ${count} elements, not ${target}`);
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${PAGE_TITLE}</title></head><body>${parts.join('')}</body></html>`;
}

/** Serves the page at http://127.0.0.1:<port>/ (a fresh port) until closed; anything else is 404. */
async function servePage(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The text parts of an MCP result, as a model reads them. */
function mcpText(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** One tool call through an MCP client: the time from request to parsed answer, and its text. */
async function mcpCall(client: Client, name: string, args: Record<string, unknown>): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS })) as CallToolResult;
  const elapsed = performance.now() - started;
  const text = mcpText(result);
  if (result.isError) throw new Error(`${name} through MCP failed: ${text.slice(0, 300)}`);
  return { ms: elapsed, text };
}

/** The Playwright MCP server over stdio, attached to the running browser's DevTools endpoint (no browser of its own). */
async function connectPlaywrightMcp(desktop: TestDesktop, port: number, outputDir: string): Promise<Client> {
  if (!existsSync(playwrightMcpCli)) throw new Error(`the Playwright MCP server is not installed (${playwrightMcpCli}): run node scripts/setup.mjs --bench`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [playwrightMcpCli, '--cdp-endpoint', `http://127.0.0.1:${port}`, '--output-dir', outputDir],
    env: stringEnv(desktop.env()),
    cwd: outputDir,
    stderr: 'pipe',
  });
  let written = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    written = (written + chunk.toString()).slice(-2000);
  });
  const client = new Client({ name: 'cup-driver-bench', version: '1.0.0' });
  try {
    await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
  } catch (error) {
    throw new Error(`the Playwright MCP server did not start: ${error instanceof Error ? error.message : String(error)}; its stderr: ${written}`);
  }
  return client;
}

interface Reading {
  ms: number;
  text: string;
  structured?: Record<string, unknown>;
}

interface Reader {
  call: () => Promise<Reading>;
  times: number[];
  last?: Reading;
}

function reader(call: () => Promise<Reading>): Reader {
  return { call, times: [] };
}

async function inProcess(context: ToolContext, name: string, args: Record<string, unknown>): Promise<Reading> {
  const started = performance.now();
  const result = await callOk(context, name, args);
  return { ms: performance.now() - started, text: resultText(result), structured: result.structured };
}

function ratioText(peer: number, ours: number): string {
  const ratio = peer / ours;
  return ratio >= 1 ? `${ratio.toFixed(1)}x faster` : `${(1 / ratio).toFixed(1)}x slower`;
}

/**
 * The rows of this scenario. Its in-process calls go through a session of its own, as an agent's session starts
 * on a browser: one that has mirrored the other sections' windows would also be handling their events.
 */
export async function browserBenchRows(desktop: TestDesktop, runs: number): Promise<BenchRow[]> {
  const context = testContext();
  const { url, server } = await servePage(benchPageHtml());
  const outputDir = mkdtempSync(join(tmpdir(), 'cup-bench-playwright-'));
  let browser: Launched | undefined;
  const clients: Client[] = [];
  try {
    browser = await launchBrowser(context, 'chromium', { urls: [url], electron_debugging_port: 0, additional_arguments: ['--disable-gpu'] }, PAGE_TITLE);
    const target = { pid: browser.pid, window_id: browser.windowId };
    const counted = await callOk(context, 'page', { ...target, action: 'execute_javascript', javascript: "document.body.getElementsByTagName('*').length" });
    if (counted.structured.result !== String(PAGE_ELEMENTS)) throw new Error(`the browser counts ${String(counted.structured.result)} elements in the bench page, not ${PAGE_ELEMENTS}`);

    const ours = (await connectMcp(desktop.env())).client;
    clients.push(ours);
    const playwright = await connectPlaywrightMcp(desktop, browser.structured.debugging_port as number, outputDir);
    clients.push(playwright);
    const state = { ...target, include_screenshot: false };
    const readers = {
      text: reader(() => inProcess(context, 'page', { ...target, action: 'get_text' })),
      snapshot: reader(() => mcpCall(playwright, 'browser_snapshot', {})),
      mcpText: reader(() => mcpCall(ours, 'page', { ...target, action: 'get_text' })),
      tree: reader(() => inProcess(context, 'get_window_state', state)),
    };
    // A reading of Chromium's accessibility tree takes seconds (every node is read, then the off-screen ones
    // pruned), so it joins the first rounds only, which keeps the scenario within about 40 s.
    const treeRounds = Math.min(runs, 3);
    // Warm-up: each reader's first call connects (DevTools, the accessibility bus) and fills caches.
    for (const each of Object.values(readers)) await each.call();
    for (let round = 0; round < runs; round++) {
      for (const each of Object.values(readers)) {
        if (each === readers.tree && round >= treeRounds) continue;
        each.last = await each.call();
        each.times.push(each.last.ms);
      }
    }
    const full = await inProcess(context, 'get_window_state', { ...state, detail: 'full' });
    const text = (each: Reader) => each.last!.text;
    if (!text(readers.snapshot).includes('Last item')) throw new Error(`browser_snapshot did not read the whole page: ${text(readers.snapshot).slice(0, 300)}`);
    for (const each of [readers.text, readers.mcpText]) if (!text(each).includes('Last item')) throw new Error(`get_text did not read the whole page: ${text(each).slice(0, 300)}`);
    const tree = readers.tree.last!.structured as { node_count: number; shown_count: number; truncated: boolean };
    if (tree.truncated) throw new Error(`get_window_state read only part of the window (${tree.node_count} nodes)`);

    const peerMs = median(readers.snapshot.times);
    const peerTokens = encode(text(readers.snapshot)).length;
    const peer = `Playwright MCP browser_snapshot (stdio) ${ms(peerMs)}`;
    const timeRow = (what: string, each: Reader): BenchRow => {
      const ours = median(each.times);
      return { what, ours: ms(ours), peer, ratio: ratioText(peerMs, ours), target: '(reported)', met: true };
    };
    const tokenRow = (what: string, ourText: string): BenchRow => {
      const tokens = encode(ourText).length;
      const saving = 1 - tokens / peerTokens;
      return {
        what,
        ours: `${tokens}`,
        peer: `browser_snapshot ${peerTokens}`,
        ratio: saving >= 0 ? `${(saving * 100).toFixed(0)}% fewer` : `${(-saving * 100).toFixed(0)}% more`,
        target: '(reported)',
        met: true,
      };
    };
    return [
      timeRow(`page get_text (CDP), ${PAGE_ELEMENTS}-element page, in-process`, readers.text),
      timeRow('page get_text through MCP (stdio)', readers.mcpText),
      timeRow(`get_window_state of the page's window, compact, in-process (${tree.node_count} nodes read, ${tree.shown_count} on screen shown; ${treeRounds} rounds)`, readers.tree),
      tokenRow('tokens (o200k), page get_text result (the whole page)', text(readers.text)),
      tokenRow('tokens (o200k), get_window_state compact result (the part on screen)', text(readers.tree)),
      tokenRow(`tokens (o200k), get_window_state detail full (the whole window, one call, ${ms(full.ms)})`, full.text),
    ];
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await stopBrowser(browser);
    await closeServer(server);
    rmSync(outputDir, { recursive: true, force: true });
    context.desktop.close();
  }
}
