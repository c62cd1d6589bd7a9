import assert from 'node:assert/strict';
import { fakeScroller, installBrowserGlobals, type BrowserGlobals } from './browserGlobals';

type FollowModule = typeof import('../../../webview/follow.js');

describe('webview: the transcript follows its bottom', () => {
  let globals: BrowserGlobals;
  let follow: FollowModule;
  before(async () => {
    globals = installBrowserGlobals();
    follow = await import('../../../webview/follow.js');
  });
  after(() => globals.remove());

  const setup = (): { scroller: HTMLElement; geometry: ReturnType<typeof fakeScroller>; follower: InstanceType<FollowModule['BottomFollower']>; jumped: boolean[] } => {
    const scroller = document.createElement('div');
    document.body.append(scroller);
    const geometry = fakeScroller(scroller, 200, 200);
    const jumped: boolean[] = [];
    const follower = new follow.BottomFollower(scroller, [], (hadFocus) => jumped.push(hadFocus));
    document.body.append(follower.jump);
    return { scroller, geometry, follower, jumped };
  };
  const userScrolls = (scroller: HTMLElement, to: number): void => {
    scroller.scrollTop = to;
    scroller.dispatchEvent(new Event('scroll'));
  };

  it('keeps to the bottom as content grows, with no jump button', () => {
    const { scroller, geometry, follower } = setup();
    geometry.setContent(900);
    follower.keepUp();
    assert.equal(scroller.scrollTop, 700);
    assert.equal(follower.jump.hidden, true);
  });

  it('keeps to the bottom when the scroller gets shorter (a prompt takes room below it) without the user moving', () => {
    const { scroller, geometry, follower } = setup();
    geometry.setContent(900);
    follower.keepUp();
    geometry.setViewport(60);
    follower.keepUp();
    assert.equal(scroller.scrollTop, 840);
    assert.equal(follower.isFollowing, true);
  });

  it('a late scroll event, measured after the scroller shrank further, is not the user leaving the bottom', () => {
    const { scroller, geometry, follower } = setup();
    geometry.setContent(900);
    follower.keepUp();
    geometry.setViewport(150); // a pane animating shorter: the event of the last scroll comes after this frame's resize
    scroller.dispatchEvent(new Event('scroll'));
    assert.equal(follower.isFollowing, true);
    assert.equal(scroller.scrollTop, 750, 'it catches up with the bottom as it is now');
    assert.equal(follower.jump.hidden, true);
  });

  it('stays where the user scrolled up to, and shows "Jump to latest" (a named button)', () => {
    const { scroller, geometry, follower } = setup();
    geometry.setContent(900);
    follower.keepUp();
    userScrolls(scroller, 100);
    geometry.setContent(1500);
    follower.keepUp();
    assert.equal(scroller.scrollTop, 100);
    assert.equal(follower.isFollowing, false);
    assert.equal(follower.jump.hidden, false);
    assert.equal(follower.jump.tagName, 'BUTTON');
    assert.equal(follower.jump.getAttribute('aria-label'), 'Jump to latest message');
  });

  it('Jump to latest goes to the bottom, follows again, hides, and says whether it had the focus', () => {
    const { scroller, geometry, follower, jumped } = setup();
    geometry.setContent(900);
    userScrolls(scroller, 0);
    follower.jump.focus();
    follower.jump.click();
    assert.equal(scroller.scrollTop, 700);
    assert.equal(follower.isFollowing, true);
    assert.equal(follower.jump.hidden, true);
    assert.deepEqual(jumped, [true]);
  });

  it('scrolling back to the bottom follows again; follow() (a message sent) always does', () => {
    const { scroller, geometry, follower } = setup();
    geometry.setContent(900);
    userScrolls(scroller, 0);
    userScrolls(scroller, 697); // within a few pixels of the bottom counts as there
    assert.equal(follower.isFollowing, true);
    userScrolls(scroller, 0);
    geometry.setContent(1200);
    follower.follow();
    assert.equal(scroller.scrollTop, 1000);
    assert.equal(follower.jump.hidden, true);
  });
});
