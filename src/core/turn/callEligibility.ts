import { isLockedOff, serverOfQualifiedName } from '../availability';
import { isBuiltinToolName, READ_RESULT_NAME } from '../tools/definitions';
import type { ToolPlan } from './toolPlan';

/**
 * Why a call the model made may not run, or undefined when its tool is in the permitted set.
 * The text goes back to the model as the call's error result, so it says what to do instead.
 */
export function callRefusal(name: string, plan: ToolPlan, runningServers: ReadonlySet<string>): string | undefined {
  if (plan.permitted.some((t) => t.name === name)) return undefined;
  const resolved = plan.resolved.get(name);
  if (resolved === undefined) {
    const server = serverOfQualifiedName(name);
    if (server !== undefined && !runningServers.has(server)) {
      return `${name} was not run: its MCP server "${server}" is not running (or there is no such tool). Use another tool or tell the user.`;
    }
    return `${name} was not run: there is no tool with that name. Call only tools you were given${plan.searchRegistered ? ', or find one with search_tools' : ''}.`;
  }
  if (name === READ_RESULT_NAME) return `${name} was not run: no result of this conversation was shortened, so there is nothing kept to read (or the user turned it off).`;
  if (isBuiltinToolName(name)) return `${name} was not run: it is not offered in this conversation (no tool is discoverable, or the user turned it off).`;
  if (isLockedOff(resolved)) return `${name} was not run: it is locked off in the user's settings.`;
  if (resolved.availability === 'off') return `${name} was not run: it is turned off in this conversation. Ask the user to turn it on if you need it.`;
  return `${name} was not run: its server is not running.`;
}
