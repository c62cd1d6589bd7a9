/** Where the manager writes what users may need to diagnose a server (the "Quiver" output channel). */
export interface McpLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
