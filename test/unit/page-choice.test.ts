// Which of a browser's pages is a window's (page-connections.ts): the facts are those Chromium's pages gave in a
// trial with a main window and a window.open popup, while the main window's page waited on a "leave site?" dialog.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { windowPage, type PageFacts } from '../../src/platform/linux/browser/page-connections.js';
import type { DesktopWindow } from '../../src/platform/windows.js';

const main: DesktopWindow = {
  id: 10485763, pid: 26023, title: 'CUP Web Trial - Chromium', appName: 'Chromium', bounds: { x: 10, y: 10, width: 1050, height: 780 },
  zIndex: 2, isOnScreen: true, onCurrentSpace: true, minimized: false, active: true,
};
const mainPage: PageFacts = { title: 'CUP Web Trial', visible: true, x: 10, y: 10, w: 1050, h: 780, scale: 1 };
// The popup showed the same page: its title fits the main window's as well as the main page's does.
const popupPage: PageFacts = { title: 'CUP Web Trial', visible: true, x: 1, y: 20, w: 400, h: 334, scale: 1 };
const hiddenTab: PageFacts = { ...mainPage, visible: false };

describe('the page a window shows, among its browser\'s pages', () => {
  test('the page placed where the window is, whatever the order', () => {
    assert.equal(windowPage([popupPage, mainPage], main), 1);
    assert.equal(windowPage([hiddenTab, mainPage, popupPage], main), 1);
  });

  test('the window\'s page silent (waiting on a dialog): not another window\'s page in its stead', () => {
    assert.equal(windowPage([undefined, popupPage], main), 'silent');
    assert.equal(windowPage([popupPage, undefined, hiddenTab], main), 'silent');
  });

  test('a browser whose placement never fits (every page answers): the best by visibility and title still', () => {
    const unplaced = { ...mainPage, x: 0, y: 0 };
    assert.equal(windowPage([{ ...unplaced, visible: false }, unplaced], main), 1);
    assert.equal(windowPage([undefined, undefined], main), undefined);
  });
});
