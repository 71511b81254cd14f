// The TypeScript SDK's (@modelcontextprotocol/sdk, pinned in versions.env) verdict on
// elicitation answers, for tests/tests/peers/elicit_sdk_agreement.rs.
//
//   node elicit_agree.mjs --node-modules DIR < cases.json > verdicts.json
//
// Input: {"forms": [{"name", "version", "params": {"message", "requestedSchema"}}],
//         "cases": [{"name", "form": <index>, "content": {...}}]}
// Output: {"sdk", "forms": [{"form", "error"}], "verdicts": [{"accept", "stage", "error"}]}
// ("forms": the forms the SDK's `ElicitRequestSchema` refuses, which its client answers with
// an error whatever the content; "verdicts": one per case, in order)
//
// In SDK 1.x the answer to a form is checked against `requestedSchema` by the server:
// `Server.elicitInput` (server/index.js) parses the client's result with `ElicitResultSchema`
// (zod: content values string | number | boolean | string[]), then, for an accepted form,
// runs `this._jsonSchemaValidator.getValidator(requestedSchema)(result.content)`: by default
// the SDK's `AjvJsonSchemaValidator` (Ajv with strict: false, validateFormats: true,
// allErrors: true, and ajv-formats' formats). The `Client` only parses the request and its
// own handler's result with the zod schemas (and fills in defaults when it declares
// `elicitation.form.applyDefaults`; not declared here); it checks nothing against the schema.
//
// So every case runs that whole path for real: an SDK `Server` and an SDK `Client` (declaring
// `elicitation: {form: {}}`) linked by the SDK's `InMemoryTransport`; the client's handler
// accepts with the case's content, and `server.elicitInput(params)` resolves (accepted) or
// throws (refused; `stage` says where: the client's or the server's zod parse of the result,
// AJV, or the client refusing the form itself).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const at = args.indexOf('--node-modules');
if (at < 0 || !args[at + 1]) {
  console.error('usage: elicit_agree.mjs --node-modules DIR < cases.json');
  process.exit(2);
}
const nodeModules = args[at + 1];
const sdkDir = join(nodeModules, '@modelcontextprotocol/sdk');
const sdk = (p) => import(pathToFileURL(join(sdkDir, 'dist/esm', p)).href);

const { Server } = await sdk('server/index.js');
const { Client } = await sdk('client/index.js');
const { InMemoryTransport } = await sdk('inMemory.js');
const { ElicitRequestSchema } = await sdk('types.js');
const version = JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8')).version;

const data = JSON.parse(readFileSync(0, 'utf8'));

const server = new Server({ name: 'elicit-agree', version: '1.0.0' }, { capabilities: {} });
const client = new Client(
  { name: 'elicit-agree', version: '1.0.0' },
  { capabilities: { elicitation: { form: {} } } },
);
let answer = null;
client.setRequestHandler(ElicitRequestSchema, async () => answer);
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await Promise.all([client.connect(clientSide), server.connect(serverSide)]);

const refused = data.forms.map((form) => {
  const parsed = ElicitRequestSchema.safeParse({ method: 'elicitation/create', params: form.params });
  return parsed.success ? null : String(parsed.error.message ?? parsed.error).slice(0, 600);
});

function stage(message) {
  if (message.includes('does not match requested schema')) return 'schema (ajv)';
  if (message.includes('Invalid elicitation result')) return 'result type (client zod)';
  return 'result type (server zod)';
}

const verdicts = [];
for (const c of data.cases) {
  const form = data.forms[c.form];
  if (refused[c.form] !== null) {
    verdicts.push({ accept: false, stage: 'form refused by the client', error: refused[c.form] });
    continue;
  }
  answer = { action: 'accept', content: c.content };
  try {
    const result = await server.elicitInput(form.params);
    if (result.action !== 'accept') throw new Error(`action ${result.action}`);
    verdicts.push({ accept: true, stage: '', error: '' });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    verdicts.push({ accept: false, stage: stage(message), error: message.slice(0, 600) });
  }
}
await client.close();
await server.close();
process.stdout.write(
  JSON.stringify({
    sdk: `@modelcontextprotocol/sdk ${version} (ajv, ajv-formats)`,
    forms: data.forms.flatMap((form, i) => (refused[i] === null ? [] : [{ form: form.name, error: refused[i] }])),
    verdicts,
  }) + '\n',
);
