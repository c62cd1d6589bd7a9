import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallHooks } from '../../core/elicitation';
import type { ToolCallResult } from '../../core/tools';
import type { ServerConfig } from '../config/serverConfig';
import type { ServerConnection } from '../connection/serverConnection';
import { answerElicitRequest } from '../features/elicitationBridge';
import { describeCallError } from '../results/describeCallError';
import { shapeToolResult } from '../results/shapeToolResult';
import { CallsInFlight } from './callsInFlight';
import type { ServerOptions } from './serverSurroundings';

/** One server's tool calls: each result (or failure) shaped for the model, each question of the server sent to the call that asked. */
export class ServerCalls {
  private readonly inFlight = new CallsInFlight();

  constructor(private readonly options: Pick<ServerOptions, 'callTimeoutMs' | 'maxResultChars' | 'elicitation'>) {}

  /** Calls `tool` on `connection`; a failure comes back as an error result, an abort as the abort. */
  run(connection: ServerConnection, config: ServerConfig, tool: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal, hooks: ToolCallHooks): Promise<ToolCallResult> {
    return this.inFlight.during(hooks, async () => {
      const { callTimeoutMs, maxResultChars } = this.options;
      const context = { server: config.name, tool };
      const progress = hooks.onProgress;
      const onProgress = progress === undefined ? undefined : (p: { progress: number; total?: number; message?: string }) => progress({ progress: p.progress, total: p.total, message: p.message });
      try {
        const result = await connection.callTool(tool, args, signal, callTimeoutMs, onProgress === undefined ? {} : { onProgress });
        return shapeToolResult(result, { ...context, maxResultChars });
      } catch (error) {
        signal.throwIfAborted();
        return describeCallError(error, { ...context, config, timeoutMs: callTimeoutMs, stderrTail: () => connection.stderrTail() });
      }
    });
  }

  /** A server's question goes to the newest call of it that listens for questions, else to the manager's answerer. */
  async answer(server: string, params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    const answer = this.inFlight.questionAnswerer() ?? this.options.elicitation;
    if (answer === undefined) return { action: 'decline' };
    return answerElicitRequest(server, params, answer, signal);
  }
}
