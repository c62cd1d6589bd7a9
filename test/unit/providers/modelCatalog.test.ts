import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { fallbackCapabilities } from '../../../src/providers/anthropic/modelTable';
import { catalogFor, ModelCatalog } from '../../../src/providers/anthropic/modelCatalog';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A local `/v1/models` the real SDK talks to; `requests` records each path it was asked. */
class ModelsServer {
  readonly requests: string[] = [];
  private readonly server: Server;
  handler: Handler = (_req, res) => json(res, 200, { data: [], has_more: false, first_id: null, last_id: null });

  constructor() {
    this.server = createServer((req, res) => {
      this.requests.push(req.url ?? '');
      this.handler(req, res);
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const support = (supported: boolean): { supported: boolean } => ({ supported });

/** A ModelInfo as the API sends it (SDK 1.14's shape). */
function modelInfo(id: string, over: { maxTokens?: number; context?: number; betweenTools?: boolean; disabled?: boolean; efforts?: readonly string[]; displayName?: string } = {}): unknown {
  const efforts = over.efforts ?? ['low', 'medium', 'high', 'xhigh', 'max'];
  return {
    type: 'model', id, display_name: over.displayName ?? id, created_at: '2026-09-28T00:00:00Z', lifecycle: 'active', line: 'sonnet',
    deprecated_at: null, retires_at: null,
    max_tokens: over.maxTokens ?? 128_000, max_input_tokens: over.context ?? 1_000_000,
    capabilities: {
      batch: support(true), citations: support(true), code_execution: support(true), image_input: support(true), pdf_input: support(true), structured_outputs: support(true),
      context_management: { supported: true, clear_thinking_20251015: support(true), clear_tool_uses_20250919: support(true), compact_20260112: support(true) },
      server_tools: { supported: true, code_execution: support(true), web_search: support(true) },
      effort: { supported: efforts.length > 0, low: support(efforts.includes('low')), medium: support(efforts.includes('medium')), high: support(efforts.includes('high')), xhigh: support(efforts.includes('xhigh')), max: support(efforts.includes('max')) },
      thinking: { supported: true, types: { adaptive: support(true), between_tools: support(over.betweenTools ?? false), disabled: support(over.disabled ?? false), enabled: support(false) } },
    },
  };
}

const page = (data: unknown[], hasMore = false): unknown => ({ data, has_more: hasMore, first_id: null, last_id: hasMore ? 'cursor' : null });
const signal = (): AbortSignal => new AbortController().signal;
let keyCounter = 0;
/** A fresh key per client: catalogs share what they learnt per base URL and key. */
const client = (baseURL: string): Anthropic => new Anthropic({ apiKey: `sk-test-${++keyCounter}-${Date.now()}`, baseURL, maxRetries: 0 });

describe('ModelCatalog over /v1/models (real SDK, local server)', () => {
  let server: ModelsServer;
  let baseURL: string;

  beforeEach(async () => {
    server = new ModelsServer();
    baseURL = await server.start();
  });
  afterEach(() => server.stop());

  it('merges thinking, effort and limits from the API over the table, and keeps the rest from the table', async () => {
    server.handler = (_req, res) => json(res, 200, page([modelInfo('claude-sonnet-5-5', { maxTokens: 64_000, context: 500_000, betweenTools: true, efforts: ['low', 'medium', 'high'] })]));
    const caps = await new ModelCatalog(client(baseURL)).capabilities('claude-sonnet-5-5', signal());
    const table = fallbackCapabilities('claude-sonnet-5-5');
    assert.equal(caps.source, 'models_api');
    assert.equal(caps.maxTokens, 64_000);
    assert.equal(caps.contextWindow, 500_000);
    assert.deepEqual(caps.efforts, ['low', 'medium', 'high']);
    assert.deepEqual(caps.thinking, { supported: true, adaptive: true, betweenTools: true, disabled: false });
    assert.equal(caps.forcedToolChoice, table.forcedToolChoice);
    assert.equal(caps.systemMessages, table.systemMessages);
    assert.equal(caps.preservedThinking, table.preservedThinking);
  });

  it('reads the list once per base URL and key, however many clients and catalogs ask', async () => {
    server.handler = (_req, res) => json(res, 200, page([modelInfo('claude-sonnet-5-5'), modelInfo('claude-opus-5-5')]));
    const apiKey = `sk-shared-${Date.now()}`;
    const answers = await Promise.all([1, 2, 3].map(() => new ModelCatalog(new Anthropic({ apiKey, baseURL, maxRetries: 0 })).capabilities('claude-sonnet-5-5', signal())));
    await catalogFor({ apiKey, baseURL }).capabilities('claude-opus-5-5', signal());
    assert.ok(answers.every((c) => c.source === 'models_api'));
    assert.deepEqual(server.requests.map((r) => r.split('?')[0]), ['/v1/models']);
    await new ModelCatalog(client(baseURL)).ids(signal());
    assert.equal(server.requests.length, 2, 'another key reads its own list');
  });

  it('follows the pages of the list', async () => {
    server.handler = (req, res) => json(res, 200, (req.url ?? '').includes('after_id=cursor') ? page([modelInfo('claude-haiku-5-5')]) : page([modelInfo('claude-sonnet-5-5')], true));
    assert.deepEqual(await new ModelCatalog(client(baseURL)).ids(signal()), ['claude-sonnet-5-5', 'claude-haiku-5-5']);
  });

  it('an alias the list does not name is resolved with retrieve, once', async () => {
    server.handler = (req, res) => {
      if (req.url?.startsWith('/v1/models/claude-sonnet-4-5')) json(res, 200, modelInfo('claude-sonnet-4-5-20250929', { maxTokens: 64_000, context: 200_000, efforts: [] }));
      else json(res, 200, page([modelInfo('claude-sonnet-5-5')]));
    };
    const catalog = new ModelCatalog(client(baseURL));
    const caps = await catalog.capabilities('claude-sonnet-4-5', signal());
    await catalog.capabilities('claude-sonnet-4-5', signal());
    assert.equal(caps.id, 'claude-sonnet-4-5');
    assert.equal(caps.source, 'models_api');
    assert.deepEqual(caps.efforts, []);
    assert.equal(caps.maxTokens, 64_000);
    assert.equal(caps.systemMessages, false, 'the rest from the alias\'s table row');
    assert.equal(server.requests.filter((r) => r.startsWith('/v1/models/')).length, 1);
  });

  it('a proxy without /v1/models (404): the table answers, and the list is not asked again', async () => {
    server.handler = (_req, res) => json(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'Not found' } });
    const catalog = new ModelCatalog(client(baseURL));
    assert.deepEqual(await catalog.capabilities('claude-sonnet-5-5', signal()), fallbackCapabilities('claude-sonnet-5-5'));
    await catalog.capabilities('claude-opus-5-5', signal());
    assert.equal(server.requests.length, 1);
    const listing = await catalog.models(signal());
    assert.equal(listing.source, 'fallback_table');
    assert.match(listing.problem ?? '', /404/);
    assert.ok(listing.models.some((m) => m.id === 'claude-sonnet-5-5' && m.displayName === 'Claude Sonnet 5.5' && m.maxTokens === 128_000));
  });

  it('a refused key (401) falls back without rejecting, and is asked again after a while, not on every request', async () => {
    server.handler = (_req, res) => json(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    let now = 1_000;
    const catalog = new ModelCatalog(client(baseURL), () => now);
    assert.equal((await catalog.capabilities('claude-sonnet-5-5', signal())).source, 'fallback_table');
    await catalog.capabilities('claude-sonnet-5-5', signal());
    assert.equal(server.requests.length, 1);
    now += 61_000;
    await catalog.capabilities('claude-sonnet-5-5', signal());
    assert.equal(server.requests.length, 2);
  });

  it('no network (nothing listening): the table answers', async () => {
    await server.stop();
    const caps = await new ModelCatalog(client(baseURL)).capabilities('claude-opus-5-5', signal());
    assert.deepEqual(caps, fallbackCapabilities('claude-opus-5-5'));
    server = new ModelsServer();
    baseURL = await server.start();
  });

  it('no key: the table answers without a request', async () => {
    const catalog = new ModelCatalog(undefined);
    assert.deepEqual(await catalog.capabilities('claude-haiku-5-5', signal()), fallbackCapabilities('claude-haiku-5-5'));
    assert.match((await catalog.models(signal())).problem ?? '', /no API key/);
    assert.equal(server.requests.length, 0);
  });

  it('a caller that aborts gets the table at once, while the list answers later for the others', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => { release = resolve; });
    server.handler = (_req, res) => void held.then(() => json(res, 200, page([modelInfo('claude-sonnet-5-5', { maxTokens: 50_000 })])));
    const catalog = new ModelCatalog(client(baseURL));
    const controller = new AbortController();
    const waiting = catalog.capabilities('claude-sonnet-5-5', controller.signal);
    controller.abort();
    assert.equal((await waiting).source, 'fallback_table');
    release();
    assert.equal((await catalog.capabilities('claude-sonnet-5-5', signal())).maxTokens, 50_000);
  });

  it('a model the table does not know takes the API\'s thinking and limits over the conservative default', async () => {
    server.handler = (_req, res) => json(res, 200, page([modelInfo('claude-future-9', { maxTokens: 200_000, betweenTools: true, displayName: 'Claude Future 9' })]));
    const catalog = new ModelCatalog(client(baseURL));
    const caps = await catalog.capabilities('claude-future-9', signal());
    assert.equal(caps.maxTokens, 200_000);
    assert.equal(caps.thinking.adaptive, true);
    assert.equal(caps.forcedToolChoice, false, 'the rest stays the conservative default');
    assert.equal(caps.systemMessages, false);
    assert.deepEqual((await catalog.models(signal())).models, [{ id: 'claude-future-9', displayName: 'Claude Future 9', contextWindow: 1_000_000, maxTokens: 200_000 }]);
  });

  it('fields a proxy leaves out fall back to the table instead of reading as unsupported', async () => {
    server.handler = (_req, res) => json(res, 200, page([{ type: 'model', id: 'claude-sonnet-5-5', display_name: 'Sonnet', created_at: '2026-09-28T00:00:00Z', capabilities: null, max_tokens: null, max_input_tokens: null }]));
    const caps = await new ModelCatalog(client(baseURL)).capabilities('claude-sonnet-5-5', signal());
    assert.deepEqual({ ...caps, source: 'fallback_table' }, fallbackCapabilities('claude-sonnet-5-5'));
    assert.equal(caps.source, 'models_api');
  });
});
