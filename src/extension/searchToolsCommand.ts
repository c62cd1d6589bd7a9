import * as vscode from 'vscode';
import { summarize } from '../core/search';
import type { ToolIndex } from '../core/search';
import { allItems, type ToolOverviewItem } from '../core/overhead';
import type { ToolsModel } from './toolsModel';
import { GROUP_ICONS } from './toolsTree';

interface ToolPick extends vscode.QuickPickItem {
  readonly item: ToolOverviewItem;
}


/**
 * "Quiver: Search Tools…": ranks every listed tool with the same index search_tools uses, as
 * the user types; picking one offers the tree's actions for it.
 */
export async function searchToolsCommand(model: ToolsModel, index: ToolIndex): Promise<void> {
  const items = new Map(allItems(model.overview()).map((i) => [i.tool.name, i]));
  index.sync([...items.values()].map((i) => i.tool));
  const pick = vscode.window.createQuickPick<ToolPick>();
  pick.title = 'Quiver: Search Tools';
  pick.placeholder = 'Describe what the tool should do, or type part of its name';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const toPick = (item: ToolOverviewItem): ToolPick => ({
    label: `$(${GROUP_ICONS[item.availability]}) ${item.tool.name}`,
    description: `${item.availability}${item.promoted ? ' · promoted' : ''} · ~${item.tokens} tok`,
    detail: summarize(item.tool.description),
    // The ranking already chose these; the quick pick's own filter would hide natural-language matches.
    alwaysShow: true,
    item,
  });
  pick.onDidChangeValue((query) => {
    if (query.trim() === '') {
      pick.items = [];
      return;
    }
    const found = index.search(query, { limit: 30, filter: (name) => items.has(name) });
    pick.items = found.results.flatMap((r) => {
      const item = items.get(r.name);
      return item ? [toPick(item)] : [];
    });
  });
  const chosen = await new Promise<ToolPick | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (!chosen) return;
  const actions = [
    { label: 'Make On', command: 'quiver.tool.makeOn' },
    { label: 'Make Discoverable', command: 'quiver.tool.makeDiscoverable' },
    { label: 'Make Off', command: 'quiver.tool.makeOff' },
    { label: 'Describe', command: 'quiver.tool.describe' },
    { label: 'Copy Name', command: 'quiver.tool.copyName' },
  ].filter((a) => !a.label.endsWith(chosen.item.availability === 'on' ? 'On' : chosen.item.availability === 'off' ? 'Off' : 'Discoverable'));
  const action = await vscode.window.showQuickPick(actions, { title: chosen.item.tool.name });
  if (action) await vscode.commands.executeCommand(action.command, { kind: 'tool', item: chosen.item });
}
