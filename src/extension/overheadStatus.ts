import * as vscode from 'vscode';
import { CONTEXT_FILL_WARNING, contextFillText, isContextFillWarning } from '../core/context';
import { formatTokens, offeredSplit } from '../core/overhead';
import type { ToolsModel } from './toolsModel';

/** Past this share of the context window, standing tool definitions crowd out the work. */
const WARNING_SHARE = 0.1;

const OVERHEAD_STATUS_ID = 'quiver.overhead';

/** The status bar item: the token overhead of the offered tool definitions, and how full the context window was at the last request. */
export class OverheadStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(OVERHEAD_STATUS_ID, vscode.StatusBarAlignment.Right, 100);

  constructor(private readonly model: ToolsModel) {
    this.item.name = 'Quiver tool overhead';
    this.item.command = 'quiver.showOverhead';
    this.update();
    this.item.show();
  }

  update(): void {
    const overview = this.model.overview();
    const window = this.model.contextWindowTokens();
    const share = overview.offeredTokens / window;
    this.item.text = `$(tools) ${overview.offeredCount} on · ${overview.searchableCount} discoverable · ${formatTokens(overview.offeredTokens)} tok`;
    const saving = overview.permittedTokens - overview.offeredTokens;
    const tooltip = new vscode.MarkdownString(undefined, true);
    // Only these two commands may run from the tooltip's links.
    tooltip.isTrusted = { enabledCommands: ['quiver.makeCostliestServerDiscoverable', 'quiver.showOverhead'] };
    tooltip.appendMarkdown('**Quiver tool definitions** (token counts are estimates)\n\n');
    const { upFront, bySearch } = offeredSplit(overview);
    tooltip.appendMarkdown(`- Loaded up front on every request: **~${formatTokens(upFront.tokens)}** tokens (${upFront.count} tools)\n`);
    if (bySearch.count > 0) tooltip.appendMarkdown(`- Loaded by search in this conversation: ~${formatTokens(bySearch.tokens)} tokens (${bySearch.count} tools)\n`);
    tooltip.appendMarkdown(`- If every permitted tool were on: ~${formatTokens(overview.permittedTokens)} tokens\n`);
    tooltip.appendMarkdown(`- Saved by discoverable tools: ~${formatTokens(saving)} tokens\n`);
    tooltip.appendMarkdown(`- Share of the ${formatTokens(window)}-token context window: ${(share * 100).toFixed(1)}%\n`);
    const fill = this.model.contextFill();
    const full = fill !== undefined && isContextFillWarning(fill);
    if (fill !== undefined) tooltip.appendMarkdown(`- ${contextFillText(fill)}\n`);
    if (full) tooltip.appendMarkdown(`\n$(warning) The context window was past ${Math.round(100 * CONTEXT_FILL_WARNING)}% full: the next requests may not fit; a new chat starts empty.\n`);
    if (share > WARNING_SHARE) {
      tooltip.appendMarkdown('\n$(warning) Tool definitions pass 10% of the window. ');
      tooltip.appendMarkdown('[Make the costliest server discoverable](command:quiver.makeCostliestServerDiscoverable) · ');
    } else tooltip.appendMarkdown('\n');
    tooltip.appendMarkdown('[Breakdown per server, tool and search](command:quiver.showOverhead)');
    this.item.tooltip = tooltip;
    // A screen reader would otherwise read the tooltip's markdown source, asterisks and link targets included.
    this.item.accessibilityInformation = {
      role: 'button',
      label: `Quiver tool definitions: ${overview.offeredCount} on, ${overview.searchableCount} discoverable, about ${Math.round(overview.offeredTokens).toLocaleString('en-US')} tokens on every request`
        + `${share > WARNING_SHARE ? ', past 10% of the context window' : ''}.${fill !== undefined ? ` ${contextFillText(fill)}.` : ''} Opens the breakdown per server, tool and search.`,
    };
    this.item.backgroundColor = share > WARNING_SHARE || full ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}
