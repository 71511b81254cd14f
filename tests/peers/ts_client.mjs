#!/usr/bin/env node
// Drive a real MCP server with the real TypeScript SDK client
// (@modelcontextprotocol/sdk, pinned in versions.env), through tap.py, at one protocol revision.
//
//   node ts_client.mjs --node-modules DIR --revision 2025-06-18 --log RAW.jsonl \
//        [--stderr ERR] [--result RESULT.json] [--python PY] -- SERVER_CMD...
//
// The SDK always offers LATEST_PROTOCOL_VERSION; an older revision is forced by a
// subclass that changes the `protocolVersion` the SDK's own initialize request
// carries (the SDK still builds and serializes every message; the tap rewrites nothing).
// The driver lists everything (all pages), calls every tool with arguments derived
// from its inputSchema (task-augmented where the tool requires tasks), gets every prompt,
// reads resources, subscribes, completes, sets the log level, pings, and answers
// sampling / roots / elicitation (accept with decimals, accept echoing defaults,
// decline, cancel, rotating).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opts = { python: 'python3', toggleSeconds: 11 };
while (argv.length && argv[0] !== '--') {
  const k = argv.shift();
  const v = argv.shift();
  if (k === '--node-modules') opts.nodeModules = v;
  else if (k === '--revision') opts.revision = v;
  else if (k === '--log') opts.log = v;
  else if (k === '--stderr') opts.stderr = v;
  else if (k === '--result') opts.result = v;
  else if (k === '--python') opts.python = v;
  else if (k === '--toggle-seconds') opts.toggleSeconds = Number(v);
  else throw new Error(`unknown option ${k}`);
}
argv.shift();
if (!opts.nodeModules || !opts.revision || !opts.log || !argv.length) {
  console.error('usage: ts_client.mjs --node-modules DIR --revision REV --log FILE -- SERVER_CMD...');
  process.exit(2);
}
const sdk = (p) => import(pathToFileURL(join(opts.nodeModules, '@modelcontextprotocol/sdk/dist/esm', p)).href);
const { Client } = await sdk('client/index.js');
const { StdioClientTransport } = await sdk('client/stdio.js');
const types = await sdk('types.js');
const { InMemoryTaskStore } = await sdk('experimental/tasks/stores/in-memory.js');

class PinnedClient extends Client {
  request(request, schema, options) {
    if (request.method === 'initialize') {
      request = { ...request, params: { ...request.params, protocolVersion: opts.revision } };
    }
    return super.request(request, schema, options);
  }
}

const TOOL_ARGS = {
  echo: [{ message: 'hello from the typescript sdk' }],
  'get-sum': [{ a: 2.5, b: 40 }],
  'trigger-long-running-operation': [{ duration: 1, steps: 3 }],
  'gzip-file-as-resource': [
    { name: 'hello.txt.gz', data: 'data:text/plain;base64,aGVsbG8gd29ybGQK', outputType: 'resource' },
    { name: 'hello2.txt.gz', data: 'data:text/plain;base64,aGVsbG8gYWdhaW4K', outputType: 'resourceLink' },
  ],
  'get-resource-reference': [{ resourceType: 'Text', resourceId: 1 }, { resourceType: 'Blob', resourceId: 2 }],
  'get-resource-links': [{ count: 3 }],
  'get-annotated-message': [{ messageType: 'error', includeImage: true }, { messageType: 'success', includeImage: false }],
  'trigger-url-elicitation': [{ url: 'https://example.com/verify?session=abc' }],
  'trigger-elicitation-request': [{}, {}, {}, {}],
  'trigger-sampling-request': [{ prompt: 'Say hello in five words', maxTokens: 40 }],
  'trigger-sampling-request-async': [{ prompt: 'Say hello in five words', maxTokens: 40 }],
  'simulate-research-query': [{ topic: 'decimal numbers', ambiguous: true }],
  add: [{ a: 2.5, b: 0.25 }],
  weather: [{ city: 'Lisbon' }],
  slow_count: [{ steps: 2 }],
  fail: [{ reason: 'deliberate failure' }],
  register_user: [{}, {}, {}, {}],
};
const TOGGLES = ['toggle-simulated-logging', 'toggle-subscriber-updates'];

function valueFor(name, s) {
  if ('default' in s) return s.default;
  if (s.enum) return s.enum[0];
  if ('const' in s) return s.const;
  for (const k of ['oneOf', 'anyOf']) if (s[k]?.length) return valueFor(name, s[k][0]);
  let t = s.type;
  if (Array.isArray(t)) t = t.find((x) => x !== 'null') ?? 'string';
  if (t === 'number') return 35.5;
  if (t === 'integer') return 7;
  if (t === 'boolean') return true;
  if (t === 'array') return s.minItems ? [valueFor(name, s.items ?? { type: 'string' })] : [];
  if (t === 'object') return argsFor(s);
  if (s.format === 'uri') return 'https://example.com/peer';
  if (s.format === 'email') return 'peer@example.com';
  if (s.format === 'date') return '2000-01-31';
  return `sample ${name}`;
}
function argsFor(schema) {
  const out = {};
  const req = new Set(schema.required ?? []);
  for (const [n, s] of Object.entries(schema.properties ?? {})) if (req.has(n) || !('default' in s)) out[n] = valueFor(n, s);
  return out;
}

let elicitN = 0;
function answerElicitation(params) {
  if (params.mode === 'url') return { action: 'accept' };
  const kind = elicitN++ % 4;
  if (kind === 2) return { action: 'decline' };
  if (kind === 3) return { action: 'cancel' };
  const content = {};
  for (const [n, s] of Object.entries(params.requestedSchema?.properties ?? {})) {
    if (kind === 1 && 'default' in s) content[n] = s.default; // echo defaults, e.g. 3.14
    else if (s.type === 'number') content[n] = 35.5;
    else if (s.type === 'integer') content[n] = Math.max(7, s.minimum ?? 7);
    else {
      const { default: _d, ...rest } = s;
      content[n] = valueFor(n, rest);
    }
  }
  return { action: 'accept', content };
}

const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/tmp', LANG: 'C.UTF-8', TZ: 'UTC' };
const tapArgs = [join(HERE, 'tap.py'), '--log', opts.log];
if (opts.stderr) tapArgs.push('--stderr', opts.stderr);
tapArgs.push('--', ...argv);
const transport = new StdioClientTransport({ command: opts.python, args: tapArgs, env, stderr: 'inherit' });

const client = new PinnedClient(
  { name: 'mcp-types-peer-ts-client', version: '1.0.0' },
  {
    capabilities: {
      roots: { listChanged: true },
      sampling: {},
      elicitation: { form: {}, url: {} },
      tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
    },
    taskStore: new InMemoryTaskStore(),
  },
);
const SAMPLED = {
  role: 'assistant',
  content: { type: 'text', text: 'Hello there, decimal 0.5 friend!' },
  model: 'peer-stub-model',
  stopReason: 'endTurn',
};
// A task-augmented server request (params.task) is answered with a CreateTaskResult; the
// result is stored shortly after, and the server fetches it with tasks/get + tasks/result.
async function maybeTask(req, extra, result) {
  if (!req.params?.task || !extra?.taskStore) return result;
  const task = await extra.taskStore.createTask({ ttl: req.params.task.ttl ?? 60000, pollInterval: 200 });
  setTimeout(() => extra.taskStore.storeTaskResult(task.taskId, 'completed', result).catch(() => {}), 300);
  return { task };
}
client.setRequestHandler(types.CreateMessageRequestSchema, async (req, extra) => maybeTask(req, extra, SAMPLED));
client.setRequestHandler(types.ListRootsRequestSchema, async () => ({
  roots: [{ uri: 'file:///tmp/mcp-peer-root', name: 'peer root' }],
}));
client.setRequestHandler(types.ElicitRequestSchema, async (req, extra) => maybeTask(req, extra, answerElicitation(req.params)));
client.setNotificationHandler(types.LoggingMessageNotificationSchema, () => {});

const errors = [];
const outcome = { requested: opts.revision };
async function step(label, fn) {
  try {
    return await fn();
  } catch (e) {
    errors.push(`${label}: ${e?.message ?? e}`);
    return undefined;
  }
}
async function paginate(fn, key) {
  const items = [];
  let cursor;
  for (let i = 0; i < 20; i++) {
    const page = await fn(cursor ? { cursor } : undefined);
    items.push(...page[key]);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return items;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const templateVars = (t) => [...t.matchAll(/\{([^}]+)\}/g)].map((m) => m[1].replace(/^[+#/?&.;]/, '').split(',')[0].replace(/\*$/, ''));

const watchdog = setTimeout(() => {
  console.error('ts_client: watchdog fired, giving up');
  process.exit(3);
}, 150_000);

await client.connect(transport);
// The negotiated revision is read from the tap log by capture.sh (the initialize result).
const caps = client.getServerCapabilities() ?? {};
outcome.server = client.getServerVersion()?.name;

await step('ping', () => client.ping());
if (caps.logging) await step('setLevel', () => client.setLoggingLevel('debug'));
const tools = (await step('tools/list', () => paginate((p) => client.listTools(p), 'tools'))) ?? [];
const prompts = (await step('prompts/list', () => paginate((p) => client.listPrompts(p), 'prompts'))) ?? [];
const resources = (await step('resources/list', () => paginate((p) => client.listResources(p), 'resources'))) ?? [];
const templates = (await step('templates/list', () => paginate((p) => client.listResourceTemplates(p), 'resourceTemplates'))) ?? [];
outcome.counts = { tools: tools.length, prompts: prompts.length, resources: resources.length, templates: templates.length };

const picked = [...resources.slice(0, 3), ...resources.slice(3).filter((r) => /^(image|application)\//.test(r.mimeType ?? '')).slice(0, 1)];
for (const r of picked) await step(`read ${r.uri}`, () => client.readResource({ uri: r.uri }));
for (const t of templates) {
  let uri = t.uriTemplate;
  for (const v of templateVars(uri)) uri = uri.replace(`{${v}}`, /id/i.test(v) ? '1' : 'peer');
  await step(`read ${uri}`, () => client.readResource({ uri }));
}
if (caps.completions) {
  for (const p of prompts)
    for (const a of p.arguments ?? [])
      await step(`complete ${p.name}.${a.name}`, () =>
        client.complete({ ref: { type: 'ref/prompt', name: p.name }, argument: { name: a.name, value: '' } }),
      );
  for (const t of templates)
    for (const v of templateVars(t.uriTemplate))
      await step(`complete ${t.uriTemplate}.${v}`, () =>
        client.complete({ ref: { type: 'ref/resource', uri: t.uriTemplate }, argument: { name: v, value: /id/i.test(v) ? '1' : 'a' } }),
      );
}
const PROMPT_ARGS = { city: 'Lisbon', state: 'LX', resourceType: 'Text', resourceId: '1', department: 'Engineering', name: 'Alice', code: 'print(1.5)', language: 'python' };
for (const p of prompts) {
  const args = {};
  for (const a of p.arguments ?? []) if (a.required || p.name === 'args-prompt') args[a.name] = PROMPT_ARGS[a.name] ?? `sample ${a.name}`;
  await step(`prompt ${p.name}`, () => client.getPrompt({ name: p.name, arguments: args }));
}

await step('roots list_changed', () => client.sendRootsListChanged());
const ordered = [...tools.filter((t) => !TOGGLES.includes(t.name)), ...tools.filter((t) => TOGGLES.includes(t.name))];
const links = [];
let toggled = false;
for (const t of ordered) {
  if (TOGGLES.includes(t.name) && !toggled) {
    toggled = true;
    if (resources.length && caps.resources?.subscribe) await step('subscribe', () => client.subscribeResource({ uri: resources[0].uri }));
  }
  const calls = TOOL_ARGS[t.name] ?? [argsFor(t.inputSchema ?? {})];
  for (const args of calls) {
    if (t.execution?.taskSupport === 'required' || t.execution?.taskSupport === 'optional' && /async|research/.test(t.name)) {
      await step(`tool(task) ${t.name}`, async () => {
        for await (const m of client.experimental.tasks.callToolStream({ name: t.name, arguments: args }, types.CallToolResultSchema, { task: { ttl: 60000 }, timeout: 30000 })) {
          if (m.type === 'error') throw m.error;
        }
      });
    } else {
      const res = await step(`tool ${t.name}`, () =>
        client.callTool({ name: t.name, arguments: args }, undefined, { onprogress: () => {}, timeout: 30000 }),
      );
      for (const c of res?.content ?? []) if (c.type === 'resource_link' && links.length < 2) links.push(c.uri);
    }
  }
}
if (toggled) {
  await sleep(opts.toggleSeconds * 1000);
  for (const name of TOGGLES) if (tools.some((t) => t.name === name)) await step(`tool ${name} (off)`, () => client.callTool({ name, arguments: {} }));
  if (resources.length && caps.resources?.subscribe) await step('unsubscribe', () => client.unsubscribeResource({ uri: resources[0].uri }));
}
for (const uri of links) await step(`read link ${uri}`, () => client.readResource({ uri }));
if (caps.tasks?.list) await step('tasks/list', () => client.experimental.tasks.listTasks());
await step('tool does-not-exist', () => client.callTool({ name: 'does-not-exist', arguments: { x: 1.5 } }));
await step('vendor/unknown', () => client.request({ method: 'vendor.example/unknown', params: { q: 0.5 } }, types.EmptyResultSchema));
await step('ping (final)', () => client.ping());
await sleep(500);
await client.close();
clearTimeout(watchdog);
outcome.errors = errors;
const text = JSON.stringify(outcome, null, 2);
if (opts.result) writeFileSync(opts.result, text + '\n');
console.log(text);
process.exit(0);
