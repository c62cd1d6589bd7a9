import { ModelError, type ModelClient, type ModelRequest, type ModelResponse, type ModelStreamObserver } from '../core/models';
import type { ModelCapabilities } from '../core/models';
import { fallbackCapabilities } from '../providers/anthropic/modelTable';
import { SETTINGS } from '../core/settings';
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
    // Never rejects: with no usable base URL the built-in table answers, and the request says why it was not sent.
    if (readQuiverSetting('anthropicBaseUrl').issue !== undefined) return fallbackCapabilities(model);
    return (await this.client()).capabilities(model, signal);
  }

  /** An invalid base URL fails the request rather than fall back: the key would go to an address the user did not choose. */
  private async client(): Promise<AnthropicModelClient> {
    const baseUrl = readQuiverSetting('anthropicBaseUrl');
    if (baseUrl.issue !== undefined) throw new ModelError('invalid_setting', baseUrl.issue, `${SETTINGS.anthropicBaseUrl.key} is not a valid URL`);
    const promotionRendering = readQuiverSetting('anthropicPromotionRendering').value;
    return new AnthropicModelClient({ apiKey: await this.keys.get(), promotionRendering, ...(baseUrl.value ? { baseURL: baseUrl.value } : {}) });
  }
}
