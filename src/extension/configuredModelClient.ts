import type { ModelClient, ModelRequest, ModelResponse, ModelStreamObserver } from '../core/model';
import type { ModelCapabilities } from '../core/modelCapabilities';
import { AnthropicModelClient } from '../providers/anthropic/anthropicModelClient';
import type { ApiKeyStore } from './apiKey';
import { readQuiverSetting } from './settings';

/**
 * The Anthropic client as the settings and the secret store say now: the key, base URL and
 * promotion rendering are read per request, so "Set API Key" or a settings edit takes effect
 * without a reload. (A client per request costs no models-list call: the catalog behind
 * `capabilities` is shared by every client with the same base URL and key.)
 */
export class ConfiguredModelClient implements ModelClient {
  constructor(private readonly keys: ApiKeyStore) {}

  async stream(request: ModelRequest, observer: ModelStreamObserver, signal: AbortSignal): Promise<ModelResponse> {
    return (await this.client()).stream(request, observer, signal);
  }

  async capabilities(model: string, signal: AbortSignal): Promise<ModelCapabilities> {
    return (await this.client()).capabilities(model, signal);
  }

  private async client(): Promise<AnthropicModelClient> {
    const baseURL = readQuiverSetting('anthropicBaseUrl').value;
    const promotionRendering = readQuiverSetting('anthropicPromotionRendering').value;
    return new AnthropicModelClient({ apiKey: await this.keys.get(), promotionRendering, ...(baseURL ? { baseURL } : {}) });
  }
}
