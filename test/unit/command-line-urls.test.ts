import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chromiumSkipsOnCommandLine } from '../../src/tools/apps/command-line-urls.js';

test("Chromium's command line opens web pages, files and about:blank, not its own pages", () => {
  for (const url of ['https://example.org/', 'http://127.0.0.1:8080/a', 'file:///tmp/a.html', '/tmp/a.html', 'data:text/html,hi', 'about:blank', 'ABOUT:BLANK']) {
    assert.equal(chromiumSkipsOnCommandLine(url), false, url);
  }
  for (const url of ['chrome://settings', 'chrome://history/', 'chrome-untrusted://new-tab-page/', 'devtools://devtools/bundled/inspector.html', 'about:settings', 'chrome-extension://abc/page.html']) {
    assert.equal(chromiumSkipsOnCommandLine(url), true, url);
  }
});
