import type { ModelClient, ModelRequest, ModelResponse, ModelStreamObserver } from '../core/model';
import { AnthropicModelClient } from '../providers/anthropic/anthropicModelClient';
import type { ApiKeyStore } from './apiKey';
import { readQuiverSetting } from './settings';

/**
 * The Anthropic client as the settings and the secret store say now: the key, base URL and
 * promotion rendering are read per request, so "Set API Key" or a settings edit takes effect
 * without a reload.
 */
export class ConfiguredModelClient implements ModelClient {
  constructor(private readonly keys: ApiKeyStore) {}

  async stream(request: ModelRequest, observer: ModelStreamObserver, signal: AbortSignal): Promise<ModelResponse> {
    const baseURL = readQuiverSetting('anthropicBaseUrl').value;
    const promotionRendering = readQuiverSetting('anthropicPromotionRendering').value;
    const client = new AnthropicModelClient({ apiKey: await this.keys.get(), promotionRendering, ...(baseURL ? { baseURL } : {}) });
    return client.stream(request, observer, signal);
  }
}
