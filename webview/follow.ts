import { button } from './dom';

/** How close to the bottom still counts as "at the bottom" (px): rounding at fractional zoom, not a scroll the user meant. */
const SLACK = 8;

/**
 * Keeps a scroller at its bottom while the user is there: new content, a reply streaming in, or
 * the scroller getting shorter (a prompt taking room below it, a pane resized) keep the latest
 * line in view. Scrolling away stops it, and "Jump to latest" shows until the user is back at
 * the bottom or calls `follow()` (sending a message always does).
 *
 * Whether to follow is decided by the user's scrolling only, never re-measured at render time: a
 * scroller that shrank has its bottom further away without the user having moved.
 */
export class BottomFollower {
  readonly jump: HTMLButtonElement;
  private following = true;
  /** Where the scroller was at the last scroll event or the last time it was put at the bottom. */
  private lastTop = 0;

  /** `content`: the scroller's children whose size changes (the follower keeps up with each). */
  constructor(
    private readonly scroller: HTMLElement,
    content: readonly Element[],
    /** After a jump; `hadFocus`: the button had the focus, which it loses as it hides. */
    private readonly onJumped: (hadFocus: boolean) => void,
  ) {
    this.jump = button({ icon: 'arrow-down', label: 'Jump to latest', title: 'Scroll to the latest message', class: 'jump-latest', onClick: () => this.jumpToLatest() });
    this.jump.setAttribute('aria-label', 'Jump to latest message');
    this.jump.hidden = true;
    scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
    // Absent only outside a browser (unit tests under jsdom); every webview has it.
    if (typeof ResizeObserver === 'function') {
      const observer = new ResizeObserver(() => this.keepUp());
      observer.observe(scroller);
      for (const el of content) observer.observe(el);
    }
  }

  get isFollowing(): boolean {
    return this.following;
  }

  /** Follow from now on and go to the bottom (sending, retrying, opening a conversation). */
  follow(): void {
    this.following = true;
    this.keepUp();
  }

  /** After a render: at the bottom if following; the jump button shown while away from it. */
  keepUp(): void {
    if (this.following && this.distance() > 0) {
      this.scroller.scrollTop = this.scroller.scrollHeight;
      this.lastTop = this.scroller.scrollTop;
    }
    this.showJump();
  }

  /**
   * Only a move up is the user leaving the bottom. A scroll event arrives a frame after the
   * scroll, and a pane being resized (VS Code animates it) can have moved the bottom further
   * away in between: measured then, the position it was put at no longer looks like the bottom.
   */
  private onScroll(): void {
    const top = this.scroller.scrollTop;
    if (this.distance() <= SLACK) this.following = true;
    else if (top < this.lastTop - 1) this.following = false;
    this.lastTop = top;
    // Still following after a late event: catch up with the bottom as it is now.
    if (this.following) this.keepUp();
    else this.showJump();
  }

  private jumpToLatest(): void {
    const hadFocus = document.activeElement === this.jump;
    this.follow();
    // The button hides itself: a keyboard user's focus goes on to the message box, not to nowhere.
    this.onJumped(hadFocus);
  }

  private distance(): number {
    return this.scroller.scrollHeight - this.scroller.scrollTop - this.scroller.clientHeight;
  }

  private showJump(): void {
    this.jump.hidden = this.following || this.distance() <= SLACK;
  }
}
