#!/usr/bin/env node
// Drive tests/examples/booking-server.rs with the real TypeScript SDK client
// (@modelcontextprotocol/sdk, pinned in versions.env) at one protocol revision, and check
// every answer.
//
//   node booking_ts.mjs --node-modules DIR --revision REV --log RAW.jsonl [--python PY] -- SERVER_CMD...
//   node booking_ts.mjs --node-modules DIR --revision REV --url http://127.0.0.1:PORT/mcp
//
// Over stdio the server runs behind tap.py, which logs every line both ways. The SDK offers
// its latest handshake revision; an older one is forced by changing the `protocolVersion` of
// the SDK's own initialize request (as ts_client.mjs does). Forms are answered by the SDK's
// real handler (`setRequestHandler(ElicitRequestSchema, …)`), following a script: accept with
// another date, accept without, decline, cancel, then the survey with decimals.
//
// Prints a JSON report ({"negotiated", "checks", "failures"}); exits 1 when a check failed.
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opts = { python: 'python3' };
while (argv.length && argv[0] !== '--') {
  const k = argv.shift();
  const v = argv.shift();
  if (k === '--node-modules') opts.nodeModules = v;
  else if (k === '--revision') opts.revision = v;
  else if (k === '--log') opts.log = v;
  else if (k === '--url') opts.url = v;
  else if (k === '--python') opts.python = v;
  else throw new Error(`unknown option ${k}`);
}
argv.shift();
if (!opts.nodeModules || !opts.revision || !opts.url === !argv.length || (argv.length && !opts.log)) {
  console.error('usage: booking_ts.mjs --node-modules DIR --revision REV (--url URL | --log FILE -- SERVER_CMD...)');
  process.exit(2);
}
const sdk = (p) => import(pathToFileURL(join(opts.nodeModules, '@modelcontextprotocol/sdk/dist/esm', p)).href);
const { Client } = await sdk('client/index.js');
const types = await sdk('types.js');

// The revision the server chose in its initialize result.
let negotiated;

class PinnedClient extends Client {
  async request(request, schema, options) {
    if (request.method !== 'initialize') return super.request(request, schema, options);
    request = { ...request, params: { ...request.params, protocolVersion: opts.revision } };
    const result = await super.request(request, schema, options);
    negotiated = result.protocolVersion;
    return result;
  }
}

const report = { checks: 0, failures: [] };
const equal = (label, got, want) => {
  report.checks += 1;
  if (!isDeepStrictEqual(got, want)) report.failures.push(`${label}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
};
const truthy = (label, ok, detail) => {
  report.checks += 1;
  if (!ok) report.failures.push(`${label}: ${JSON.stringify(detail)}`);
};
const textOf = (result) => result.content.map((b) => b.text ?? '').join('');

// The person answering forms: each elicitation gets the next scripted answer.
const script = [];
const forms = [];

async function drive() {
  let transport;
  if (opts.url) {
    const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
    transport = new StreamableHTTPClientTransport(new URL(opts.url));
  } else {
    const { StdioClientTransport } = await sdk('client/stdio.js');
    transport = new StdioClientTransport({
      command: opts.python,
      args: [join(HERE, 'tap.py'), '--log', opts.log, '--', ...argv],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
    });
  }
  const client = new PinnedClient({ name: 'booking-ts', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(types.ElicitRequestSchema, async (request) => {
    forms.push(request.params);
    const answer = script.shift() ?? { action: 'cancel' };
    return typeof answer === 'function' ? answer(request.params) : answer;
  });
  await client.connect(transport);
  const outcome = { requested: opts.revision };
  try {
    outcome.negotiated = negotiated;
    equal('negotiated revision', outcome.negotiated, opts.revision);
    equal('server name', client.getServerVersion()?.name, 'booking-server');
    const caps = client.getServerCapabilities();
    truthy('capabilities', caps?.tools && caps?.resources && caps?.prompts, caps);

    const { tools } = await client.listTools();
    equal('tools', tools.map((t) => t.name), ['book_table', 'survey']);
    equal('book_table requires', tools[0].inputSchema.required, ['date']);

    const { resources } = await client.listResources();
    equal('resources', resources.map((r) => r.uri), ['booking://menu']);
    const { contents } = await client.readResource({ uri: 'booking://menu' });
    truthy('menu text', (contents[0].text ?? '').includes('Risotto 14.00'), contents);

    const { prompts } = await client.listPrompts();
    equal('prompts', prompts.map((p) => p.name), ['plan_dinner']);
    equal('prompt arguments', (prompts[0].arguments ?? []).map((a) => [a.name, a.required]), [['guests', true]]);
    const prompt = await client.getPrompt({ name: 'plan_dinner', arguments: { guests: '4' } });
    equal('prompt text', prompt.messages[0].content.text, 'Book a table for 4 and choose from booking://menu.');

    let r = await client.callTool({ name: 'book_table', arguments: { date: '2026-12-25' } });
    equal('free day', [textOf(r), Boolean(r.isError)], ['Booked a table for 2026-12-25.', false]);

    // The full day: a form, answered four ways.
    const accept = (content) => ({ action: 'accept', content });
    for (const [label, answer, want] of [
      ['accept', accept({ checkAlternative: true, alternativeDate: '2026-12-27' }), 'Booked a table for 2026-12-27.'],
      ['accept, no', accept({ checkAlternative: false, alternativeDate: '2026-12-27' }), 'Nothing was booked.'],
      ['decline', { action: 'decline' }, 'Nothing was booked.'],
      ['cancel', { action: 'cancel' }, 'Nothing was booked.'],
    ]) {
      script.push(answer);
      const before = forms.length;
      r = await client.callTool({ name: 'book_table', arguments: { date: '2026-12-24' } });
      equal(`full day, ${label}`, [textOf(r), Boolean(r.isError)], [want, false]);
      equal(`full day, ${label}: forms asked`, forms.length - before, 1);
    }
    const form = forms.at(-1);
    equal('form message', form.message, '2026-12-24 is full.');
    const props = form.requestedSchema.properties;
    equal('form fields', Object.keys(props), ['checkAlternative', 'alternativeDate']);
    equal('date format', props.alternativeDate.format, 'date');

    script.push((params) => {
      const p = params.requestedSchema.properties;
      return accept({ name: 'Ada', age: 36, heightM: 1.75, subscribe: true,
                      color: p.color.enum[1], toppings: [p.toppings.items.enum[0]] });
    });
    r = await client.callTool({ name: 'survey', arguments: {} });
    if (opts.revision === '2025-06-18') {
      // No multi-select in 2025-06-18: the tool says which field cannot be asked.
      truthy('survey in 2025-06-18', r.isError === true && textOf(r).includes('`toppings`'), textOf(r));
      script.length = 0;
    } else {
      equal('survey', [textOf(r), Boolean(r.isError)], ['Ada, 36 years, 1.75 m, subscribe: true, Green, [Cheese]', false]);
    }
  } catch (e) {
    report.failures.push(`${e?.name ?? 'Error'}: ${e?.message ?? e}`);
  } finally {
    await client.close();
  }
  return outcome;
}

const outcome = await drive().catch((e) => {
  report.failures.push(`${e?.name ?? 'Error'}: ${e?.message ?? e}`);
  return { requested: opts.revision };
});
outcome.checks = report.checks;
outcome.failures = report.failures;
console.log(JSON.stringify(outcome, null, 2));
process.exit(outcome.failures.length ? 1 : 0);
