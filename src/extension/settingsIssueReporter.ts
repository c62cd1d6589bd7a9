import * as vscode from 'vscode';
import type { ConfigIssue, IgnoredRunPolicy } from '../core/availability';
import { ReportedOnce } from '../core/settings';
import { settingIssues } from '../core/settings';
import type { BannerSeverity } from '../protocol';
import { ignoredEntryText } from './ignoredRunPolicyText';
import { writtenSetting } from './settings';

/** Where a standing problem is shown in the chat (ChatViewProvider): keyed, so it can be withdrawn. */
export interface ChatNotices {
  showNotice(key: string, severity: BannerSeverity, message: string): void;
  withdrawNotice(key: string): void;
}

/** What the reporter reads of `quiver.tools` (LiveToolsModel). */
export interface ToolsSettingProblems {
  settingsIssues(): readonly ConfigIssue[];
  ignoredRunPolicies(): readonly IgnoredRunPolicy[];
}

export interface SettingsIssueReporterDeps {
  readonly log: vscode.LogOutputChannel;
  readonly notices: ChatNotices;
  readonly tools: ToolsSettingProblems;
  /** Opens settings.json at the entry of `key` (undefined: the problem is of the whole value). */
  readonly reveal: (key: string | undefined) => Promise<void>;
}

/**
 * Reports what is wrong in the settings, each problem once per change however often settings are
 * read or change events fire: a registered setting whose value is unusable (in the log and the
 * chat's notices, naming the setting, the value and what is used instead), a workspace's ignored
 * run policy (in the log), and problems of `quiver.tools` entries (in the log and one warning).
 */
export class SettingsIssueReporter {
  private readonly registered = new ReportedOnce();
  private readonly ignored = new ReportedOnce();
  private readonly toolEntries = new ReportedOnce();

  constructor(private readonly deps: SettingsIssueReporterDeps) {}

  /** Looks at every registered setting (at activation, and on a change of any `quiver.*` setting). */
  checkRegistered(): void {
    const { log, notices } = this.deps;
    const { fresh, gone } = this.registered.update(settingIssues((key) => writtenSetting(key)));
    for (const [key, text] of fresh) {
      log.warn(text);
      notices.showNotice(noticeKey(key), 'warning', text);
    }
    for (const key of gone) notices.withdrawNotice(noticeKey(key));
  }

  /** Looks at `quiver.tools` as applied (at activation, and on each change of it or of the approvals). */
  checkTools(): void {
    const { log, tools } = this.deps;
    const ignoredNow = tools.ignoredRunPolicies().map(ignoredEntryText);
    for (const [, text] of this.ignored.update(byText(ignoredNow)).fresh) log.warn(text);
    const issues = tools.settingsIssues();
    const fresh = new Set(this.toolEntries.update(byText(issues.map(issueText))).fresh.map(([text]) => text));
    const news = issues.filter((issue) => fresh.has(issueText(issue)));
    for (const issue of news) log.error(issueText(issue));
    this.warn(news);
  }

  private warn(news: readonly ConfigIssue[]): void {
    const [first] = news;
    if (!first) return;
    const more = news.length > 1 ? ` (and ${news.length - 1} more in the Quiver log)` : '';
    void vscode.window.showWarningMessage(`Quiver: ${issueText(first)}${more}`, 'Open Settings').then(async (choice) => {
      if (choice) await this.deps.reveal(first.key);
    });
  }
}

function noticeKey(settingKey: string): string {
  return `setting:${settingKey}`;
}

function issueText(issue: ConfigIssue): string {
  return `${issue.path}: ${issue.message}`;
}

/** A list of texts as problems keyed by themselves: a text is the whole of what is reported. */
function byText(texts: readonly string[]): Map<string, string> {
  return new Map(texts.map((t) => [t, t]));
}
