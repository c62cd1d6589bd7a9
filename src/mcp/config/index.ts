export { expandVariables, type ExpansionContext } from './expandVariables';
export { mergeServerConfigs, parseMcpJson, parseQuiverServers } from './parseServerConfigs';
export { NONE_RESTING, restingServers, type RestingServers } from './restingServers';
export { describeSource, isWorkspaceSource, launchIdentity, sameServerConfig, type ConfigSource, type OAuthSettings, type ParsedServerConfigs, type RemoteServerConfig, type ServerConfig, type StdioServerConfig } from './serverConfig';
