export { SERVER_NICENESS, ServerConnection, type ServerInfo } from './serverConnection';
