import { applyHostMessage, parseHostToWebview, type BannerSeverity, type ChatSnapshot, type HostToWebview } from '../src/protocol';
import { Composer } from './composer';
import { button, h, icon } from './dom';
import { BottomFollower } from './follow';
import { HistoryPanel } from './history';
import { PromptSlot } from './promptSlot';
import { Transcript } from './transcript';
import { loadCache, post, saveCache } from './vscodeApi';

const cache = loadCache();
let state: ChatSnapshot | null = cache.snapshot;
let draft = cache.draft;

const title = h('span', { class: 'conversation-title' });
const history = new HistoryPanel(() => toggleHistory(false));
const historyButton = button({ icon: 'history', title: 'Show chats', onClick: () => toggleHistory() });
const header = h(
  'div',
  { class: 'header' },
  title,
  h('span', { class: 'spacer' }),
  historyButton,
);
const banners = h('div', { class: 'banners', attrs: { role: 'status' } });
const apiKeyNotice = h(
  'div',
  { class: 'notice api-key-notice' },
  h('div', { class: 'notice-title' }, icon('key'), h('span', {}, 'Quiver needs an Anthropic API key')),
  h('p', {}, 'Run ', h('strong', {}, 'Quiver: Set API Key'), ' from the Command Palette, or set the ', h('code', {}, 'ANTHROPIC_API_KEY'), ' environment variable and reload the window.'),
  button({ label: 'Set API Key', title: 'Run Quiver: Set API Key', class: 'primary', onClick: () => post({ type: 'setApiKey' }) }),
);
const transcript = new Transcript(() => {
  follower.follow();
  post({ type: 'regenerate' });
}, {
  retry: (item) => {
    follower.follow();
    post({ type: 'retryMessage', id: item.id });
  },
  edit: (item) => {
    composer.setText(item.text);
    post({ type: 'dropMessage', id: item.id });
  },
  drop: (item) => post({ type: 'dropMessage', id: item.id }),
});
const follower = new BottomFollower(transcript.el, transcript.content, (hadFocus) => {
  if (hadFocus) composer.focus();
});
const prompts = new PromptSlot({
  answer: (callId, answer, reason) => post({ type: 'approvalAnswer', callId, answer, reason }),
  reply: (promptId, reply) => post({ type: 'elicitationAnswer', promptId, reply }),
  typing: () => composer.isTyping(),
  focusLeft: () => composer.focus(),
});
const composer = new Composer(
  draft,
  (d) => {
    draft = d;
    scheduleSave();
  },
  () => follower.follow(),
);

// The transcript is the only part that gives way (chat.css): the prompts and the message box keep their height.
const transcriptPane = h('div', { class: 'transcript-pane' }, transcript.el, follower.jump);
const app = h('div', { class: 'app' }, header, history.el, banners, apiKeyNotice, transcriptPane, prompts.el, composer.el);
document.body.append(app);
// A view too short for everything scrolls as a whole; a resize keeps a waiting prompt whole in it.
new ResizeObserver(() => {
  if (prompts.waiting) prompts.reveal();
}).observe(app);

function lastTurnSucceeded(s: ChatSnapshot): boolean {
  const last = s.items[s.items.length - 1];
  return last?.kind === 'turn_summary' && last.reason === 'done';
}

function toggleHistory(show = !history.visible): void {
  history.toggle(show);
  historyButton.classList.toggle('active', show);
  historyButton.setAttribute('aria-expanded', String(show));
}

function showBanner(severity: BannerSeverity, message: string): void {
  const codicon = severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'info';
  const el = h('div', { class: `banner banner-${severity}` }, icon(codicon), h('span', { class: 'banner-text' }, message));
  el.append(button({ icon: 'close', title: 'Dismiss', onClick: () => el.remove() }));
  banners.append(el);
  // Keep the few latest; older notices stop being useful.
  while (banners.childElementCount > 3) banners.firstElementChild?.remove();
}

// ------------------------------------------------------------------------------------------
// Rendering, batched to one pass per frame so streamed deltas do not re-render per token.

let frame = 0;
function scheduleRender(): void {
  if (frame === 0) frame = requestAnimationFrame(render);
}

function render(): void {
  frame = 0;
  if (!state) {
    app.classList.add('loading');
    return;
  }
  app.classList.remove('loading');
  title.textContent = state.conversation.title;
  title.title = state.conversation.title;
  apiKeyNotice.hidden = state.apiKeySet;
  prompts.render(state.pendingApprovals, state.pendingElicitations);
  composer.render(state);
  transcript.render(state);
  follower.keepUp();
  history.render(state);
  scheduleSave();
}

let saveTimer = 0;
function scheduleSave(): void {
  window.clearTimeout(saveTimer);
  saveTimer = window.setTimeout(() => saveCache({ snapshot: state, draft }), 300);
}

function onHostMessage(msg: HostToWebview): void {
  if (msg.type === 'banner') {
    showBanner(msg.severity, msg.message);
    return;
  }
  if (msg.type === 'focusComposer') {
    composer.focus();
    return;
  }
  if (msg.type === 'fileCompletions') {
    composer.showFiles(msg.query, msg.files);
    return;
  }
  if (msg.type === 'restoreDraft') {
    composer.setText(msg.text);
    return;
  }
  const before = state;
  if (msg.type === 'snapshot') {
    if (state && msg.state.conversation.id !== state.conversation.id) {
      banners.replaceChildren();
      follower.follow(); // another conversation opens at its latest message
    }
    state = msg.state;
  } else if (state) {
    state = applyHostMessage(state, msg);
  }
  // A notice about an earlier message stops mattering once a turn has gone through.
  if (before?.busy === true && state?.busy === false && lastTurnSucceeded(state)) banners.replaceChildren();
  // Deltas before the first snapshot are dropped: the host answers `ready` with a snapshot.
  scheduleRender();
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = parseHostToWebview(event.data);
  if (!parsed.ok) {
    console.warn('Quiver: ignored an invalid host message:', parsed.error);
    return;
  }
  onHostMessage(parsed.value);
});

// Links never navigate the webview: the host decides whether and how to open them.
function interceptLink(e: MouseEvent): void {
  const target = e.target instanceof Element ? e.target.closest('a') : null;
  if (!target) return;
  e.preventDefault();
  const href = target.getAttribute('href');
  if (href && (e.type === 'click' || e.button === 1)) post({ type: 'openLink', href });
}
document.addEventListener('click', interceptLink, true);
document.addEventListener('auxclick', interceptLink, true);

document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && history.visible) toggleHistory(false);
});
// The history list is a popup: working anywhere else in the chat closes it.
document.addEventListener('pointerdown', (e) => {
  if (history.visible && e.target instanceof Node && !history.el.contains(e.target) && !historyButton.contains(e.target)) toggleHistory(false);
});

render();
post({ type: 'ready' });
composer.focus();
