// The MCP layer's public face: the manager, one ToolSource over every configured server, and
// what the editor needs to configure it, sign in to its servers and show their state.
export { McpManager, type McpManagerOptions } from './manager';
export { expandVariables, mergeServerConfigs, parseMcpJson, parseQuiverServers, restingServers, type ConfigSource, type ExpansionContext, type ParsedServerConfigs, type RemoteServerConfig, type RestingServers, type ServerConfig } from './config';
export { ownsToolKey } from './catalogue';
export { promptContent, resourceTexts, type ResourceText, type ServerPrompt, type ServerResource } from './features';
export { type ServerState, type ServerStatus } from './lifecycle';
export { clientSecretKey, serverUrlOfKey, SharedRefreshLock, type SecretStore, type SignInBrowser, type SignInReason } from './oauth';
