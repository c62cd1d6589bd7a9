import { resolveTool, type ToolsConfig } from '../availability';
import type { SignInWaiting, ToolSource } from '../tools/toolSource';

/**
 * The servers waiting for sign-in as this conversation sees them: each with the known tools its
 * settings do not turn off (an off tool is never searched or named, signed in or not).
 */
export function waitingForSignIn(source: ToolSource, config: ToolsConfig): SignInWaiting[] {
  return source.signInServers().map((s) => ({ server: s.server, tools: s.tools.filter((t) => resolveTool(config, t).availability !== 'off') }));
}
