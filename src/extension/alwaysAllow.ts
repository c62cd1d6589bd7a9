import * as vscode from 'vscode';
import { resolveTool, runSourceKey, serverOfQualifiedName } from '../core/availability';
import type { RunApprovals } from './runApprovals';
import { AppliedToolsSetting, type ToolSettings } from './settings';

/**
 * "Always allow this tool": recorded where the user's own approvals live (User settings, or
 * RunApprovals' store in a dev container), never in a workspace's file. A workspace may still
 * make a tool ask; then the user is told why the approval does not show.
 */
export async function allowAlways(tool: string, settings: ToolSettings, approvals: RunApprovals): Promise<void> {
  if (approvals.inUserSettings) await settings.writeToolRunPolicy(tool, 'unattended');
  else await approvals.add(tool);
  const identity = { name: tool, server: serverOfQualifiedName(tool) };
  const config = AppliedToolsSetting.read(approvals.trust()).parsed.value;
  if (resolveTool(config, identity).run !== 'ask') return;
  const key = runSourceKey(config, identity) ?? tool;
  void vscode.window.showWarningMessage(`Quiver: ${tool} will still ask before each call: this workspace's settings say "run": "ask" for "${key}", and a workspace may make tools ask. Your approval is kept for other workspaces.`);
}
