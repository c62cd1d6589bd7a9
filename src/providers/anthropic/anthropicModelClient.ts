import Anthropic from '@anthropic-ai/sdk';
import { ModelError, type ModelClient, type ModelRequest, type ModelResponse, type ModelStreamObserver } from '../../core/models';
import type { ModelCapabilities } from '../../core/models';
import { fallbackCapabilities } from './modelTable';
import { describeError, MISSING_KEY_MESSAGE } from './describeError';
import { responseFromWire } from './fromWire';
import { ModelCatalog } from './modelCatalog';
import type { PromotionRendering } from './rendering';
import { requestToWire } from './toWire';

export interface AnthropicOptions {
  /** From SecretStorage or ANTHROPIC_API_KEY; the caller reads it. Undefined or empty: every request fails with how to set one. */
  readonly apiKey: string | undefined;
  /** quiver.anthropic.baseUrl; empty or undefined uses the SDK default. */
  readonly baseURL?: string;
  /** Retries of 408/409/429/5xx and connection errors, done by the SDK (default 2). */
  readonly maxRetries?: number;
  readonly timeoutMs?: number;
  /** quiver.anthropic.promotionRendering; `toolReference` by default. */
  readonly promotionRendering?: PromotionRendering;
}

/** The Messages API through the official SDK's streaming helper (the beta route, for system-message tool changes). */
export class AnthropicModelClient implements ModelClient {
  private readonly client: Anthropic | undefined;
  private readonly catalog: ModelCatalog | undefined;
  private readonly maxRetries: number;
  private readonly rendering: PromotionRendering;
  private readonly baseURL: string | undefined;

  constructor(options: AnthropicOptions) {
    this.maxRetries = options.maxRetries ?? 2;
    this.rendering = options.promotionRendering ?? 'toolReference';
    this.baseURL = options.baseURL || undefined;
    this.client = options.apiKey
      ? new Anthropic({
          apiKey: options.apiKey,
          maxRetries: this.maxRetries,
          ...(options.baseURL ? { baseURL: options.baseURL } : {}),
          ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
        })
      : undefined;
    this.catalog = this.client ? new ModelCatalog(this.client) : undefined;
  }

  capabilities(model: string, signal: AbortSignal): Promise<ModelCapabilities> {
    return this.catalog ? this.catalog.capabilities(model, signal) : Promise.resolve(fallbackCapabilities(model));
  }

  async stream(request: ModelRequest, observer: ModelStreamObserver, signal: AbortSignal): Promise<ModelResponse> {
    if (!this.client) throw new ModelError('missing_key', MISSING_KEY_MESSAGE);
    const stream = this.client.beta.messages.stream(requestToWire(request, this.rendering), { signal });
    stream.on('text', (delta) => observer.onText(delta));
    stream.on('thinking', (delta) => observer.onThinking?.(delta));
    stream.on('streamEvent', (event) => {
      if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') observer.onToolUseStart?.(event.content_block.id, event.content_block.name);
    });
    try {
      return responseFromWire(await stream.finalMessage());
    } catch (err) {
      throw describeError(err, signal, this.maxRetries, this.baseURL);
    }
  }
}
