import type { IgnoredRunPolicy, SettingsScope } from '../core/availability';

const WRITTEN_IN: Readonly<Record<SettingsScope, string>> = {
  workspaceFolder: "this folder's settings",
  workspace: "this workspace's settings",
  user: "this dev container's settings (a repository's devcontainer.json writes them)",
};

const WHY = 'a settings file a repository can ship must not let tools run without asking';

/** The log line for an ignored entry, whether or not some tool ends up asking because of it. */
export function ignoredEntryText(ignored: IgnoredRunPolicy): string {
  return `quiver.tools[${JSON.stringify(ignored.key)}].run: "unattended" in ${WRITTEN_IN[ignored.scope]} is not applied: ${WHY}.`;
}

/** Why a tool asks although a settings file says it may run unattended (the Tools view's hover). */
export function whyToolAsks(ignored: IgnoredRunPolicy): string {
  return `Asks before each call: ${WRITTEN_IN[ignored.scope]} say "run": "unattended" for "${ignored.key}", which Quiver ignores, because ${WHY}. `
    + 'To let it run unattended, choose "Always allow this tool" when it asks, or set its "run" in your User settings (outside a dev container).';
}
