import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isOlderBuild, thisBuild } from '../../src/server/daemon/identity.js';
import { decodeResponse, encodeResult, parseRequest, RequestError, sessionNameProblem } from '../../src/server/daemon/protocol.js';
import { packageVersion } from '../../src/server/version.js';

function rejects(line: string, pattern: RegExp, id: string | number | null = null): void {
  assert.throws(
    () => parseRequest(line),
    (error: unknown) => error instanceof RequestError && pattern.test(error.message) && error.id === id,
  );
}

describe('daemon requests', () => {
  test('a call defaults op to "call" and arguments to {}', () => {
    assert.deepEqual(parseRequest('{"id": 7, "tool": "list_windows", "origin": "cli"}'), {
      id: 7,
      op: 'call',
      tool: 'list_windows',
      arguments: {},
      origin: 'cli',
    });
    assert.deepEqual(parseRequest('{"id": "a", "op": "call", "tool": "zoom", "arguments": {"x1": 1}, "session": "s1", "origin": "mcp"}'), {
      id: 'a',
      op: 'call',
      tool: 'zoom',
      arguments: { x1: 1 },
      origin: 'mcp',
      session: 's1',
    });
  });

  test('control requests need only an id and the op', () => {
    assert.deepEqual(parseRequest('{"id": 1, "op": "ping"}'), { id: 1, op: 'ping' });
    assert.deepEqual(parseRequest('{"id": 2, "op": "status"}'), { id: 2, op: 'status' });
    assert.deepEqual(parseRequest('{"id": 3, "op": "shutdown"}'), { id: 3, op: 'shutdown' });
  });

  test('a cancel names the call it cancels by that call\'s id', () => {
    assert.deepEqual(parseRequest('{"id": 4, "op": "cancel", "call_id": 3}'), { id: 4, op: 'cancel', call_id: 3 });
    assert.deepEqual(parseRequest('{"id": "b", "op": "cancel", "call_id": "a"}'), { id: 'b', op: 'cancel', call_id: 'a' });
    rejects('{"id": 5, "op": "cancel"}', /"call_id" must be the id of a call sent on this connection/, 5);
  });

  test('bad requests name the problem and keep the id when there is one', () => {
    rejects('{"id": 1, "tool": ', /not valid JSON/);
    rejects('[1, 2]', /expected a JSON object/);
    rejects('{"tool": "list_windows", "origin": "cli"}', /"id" must be a string or a number/);
    rejects('{"id": {}, "op": "ping"}', /"id" must be a string or a number/);
    rejects('{"id": 4, "op": "reboot"}', /unknown op "reboot"; valid ops: call, cancel, ping, status, shutdown/, 4);
    rejects('{"id": 5, "origin": "cli"}', /"tool" must name a tool/, 5);
    rejects('{"id": 6, "tool": "zoom", "arguments": [1], "origin": "cli"}', /"arguments" must be a JSON object/, 6);
    rejects('{"id": 7, "tool": "zoom", "origin": "web"}', /"origin" must be "cli" or "mcp"/, 7);
    rejects('{"id": 8, "tool": "zoom", "origin": "mcp"}', /"mcp" requests must name their session/, 8);
    rejects('{"id": 9, "tool": "zoom", "origin": "cli", "session": "no spaces"}', /invalid session name "no spaces"/, 9);
    rejects('{"id": 10, "tool": "zoom", "origin": "cli", "session": 3}', /"session" must be a string/, 10);
  });

  test('session names: letters, digits and . _ : @ -, up to 128, starting with a letter or digit', () => {
    for (const good of ['s1', 'agent-1', 'mcp-123-abcd', 'a.b_c:d@e', 'x'.repeat(128)]) assert.equal(sessionNameProblem(good), undefined, good);
    for (const bad of ['', '-lead', 'with space', 'slash/y', '(cli)', 'x'.repeat(129)]) assert.match(sessionNameProblem(bad) ?? '', /invalid session name/, bad);
    assert.match(sessionNameProblem('cli') ?? '', /"cli" is reserved for the anonymous CLI session: omit --session to use it/);
  });
});

describe('daemon responses', () => {
  test('images travel as base64 and come back as the same bytes', () => {
    const data = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 10, 13]);
    const wire = encodeResult(3, {
      ok: true,
      summary: '✅ done',
      body: 'tree',
      images: [{ data, mimeType: 'image/png', label: 'screenshot' }],
      structured: { n: 1 },
    });
    assert.equal(wire.images[0]!.data, data.toString('base64'));
    const line = JSON.stringify(wire);
    assert.ok(!line.includes('\n'), 'one response is one line');
    const decoded = decodeResponse(line);
    assert.equal(decoded.id, 3);
    assert.deepEqual(decoded.result, { ok: true, summary: '✅ done', body: 'tree', images: [{ data, mimeType: 'image/png', label: 'screenshot' }], structured: { n: 1 } });
  });

  test('failures keep their kind; something that is not a response is refused', () => {
    const decoded = decodeResponse('{"id":null,"ok":false,"failure":"usage","summary":"bad request: x","images":[],"structured":{}}');
    assert.equal(decoded.id, null);
    assert.equal(decoded.result.failure, 'usage');
    assert.throws(() => decodeResponse('HTTP/1.1 400 Bad Request'), /not JSON/);
    assert.throws(() => decodeResponse('{"hello": 1}'), /without ok, summary and images/);
  });
});

describe('which daemon a client replaces', () => {
  const client = { version: '1.0.0', entry: '/opt/cup/main.js', built_at: 2000 };

  test('only a daemon built before the client code; a newer or equal one is used as it is', () => {
    assert.equal(isOlderBuild({ ...client, built_at: 1999 }, client), true);
    assert.equal(isOlderBuild(client, client), false);
    assert.equal(isOlderBuild({ ...client, built_at: 2001 }, client), false, 'an old long-lived client never replaces a newer daemon');
    assert.equal(isOlderBuild({ ...client, entry: '/elsewhere/main.js', built_at: 2500 }, client), false);
  });

  test('a daemon that does not say when it was built is not replaced', () => {
    assert.equal(isOlderBuild(undefined, client), false);
    assert.equal(isOlderBuild('0.1.0 /x 5', client), false);
    assert.equal(isOlderBuild({ version: '0.0.1' }, client), false);
  });

  test('this process knows its own build', () => {
    assert.equal(thisBuild.version, packageVersion);
    assert.match(thisBuild.entry, /dist\/src\/server\/main\.js$/);
    assert.ok(thisBuild.built_at > 0);
  });
});
