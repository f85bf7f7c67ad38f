import { SpineError } from '../../core/spine-error.js';
import {
  isProviderName,
  type ProviderName,
  type ProviderPreset,
  providerNames,
  resolvePreset,
} from './presets.js';
import type { EndpointSettings } from './provider-adapter.js';

/**
 * A provider name as given by a caller → a preset name; anything else is a CONFIG_INVALID error that lists the
 * valid names, so a typo never silently falls back to a dialect the runner may reject.
 */
export function parseProviderName(value: string): ProviderName {
  if (isProviderName(value)) return value;
  throw new SpineError({
    code: 'CONFIG_INVALID',
    message: `unknown provider "${value}": must be one of ${providerNames.join(', ')}`,
    details: { provider: value, valid: [...providerNames] },
  });
}

/**
 * The preset one call is shaped by: the endpoint's own, else the provider's for the model this call names
 * (a per-call model may be an OpenAI reasoning model that takes other fields), with the quirks applied last.
 */
export function resolveEndpointPreset(endpoint: EndpointSettings, model: string): ProviderPreset {
  if (endpoint.preset) return endpoint.preset;
  return resolvePreset(parseProviderName(endpoint.provider), { model, quirks: endpoint.quirks });
}
